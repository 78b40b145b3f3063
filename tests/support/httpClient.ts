/**
 * A small browser-like HTTP client for API tests: keeps cookies between requests (one client =
 * one visitor) and sends the CSRF token once it has fetched one.
 */
export class TestClient {
  private cookies = new Map<string, string>();
  csrfToken: string | undefined;

  constructor(readonly baseUrl: string) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(this.baseUrl + path, {
      method,
      headers: {
        Accept: 'application/json',
        ...(body !== undefined && typeof body !== 'string' ? { 'Content-Type': 'application/json' } : {}),
        ...(this.cookies.size ? { Cookie: this.cookieHeader } : {}),
        ...(this.csrfToken && method !== 'GET' ? { 'X-CSRF-Token': this.csrfToken } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      redirect: 'manual',
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    // biome-ignore lint/suspicious/noExplicitAny: tests assert on arbitrary response JSON
    return { status: res.status, headers: res.headers, text, body: json as any };
  }

  get(path: string) {
    return this.request('GET', path);
  }

  post(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request('POST', path, body, headers);
  }

  /** GET /api/csrf-token and remember the token for later mutating requests. */
  async fetchCsrfToken(): Promise<string> {
    const res = await this.get('/api/csrf-token');
    if (res.status !== 200) throw new Error(`csrf-token: ${res.status}`);
    this.csrfToken = res.body.csrfToken;
    return this.csrfToken!;
  }
}
