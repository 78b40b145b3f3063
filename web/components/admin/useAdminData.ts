import { useEffect } from 'react';
import { useLocation } from 'wouter';
import type { CallInput, OutputOf } from '../../../contract/apiRoute';
import { type InputArgs, type JsonRoute, routePath } from '../../api/call';
import { type ApiData, useApiData } from '../../api/useApiData';
import { useAuth } from '../../stores/auth';

/**
 * useApiData for admin reads: a 401 (session gone) sends the person to /auth and a 403 (no longer
 * an admin) to /, as the dashboard's check does in the spec.
 */
export function useAdminData<T>(path: string | null): ApiData<T> {
  const data = useApiData<T>(path);
  const [, navigate] = useLocation();
  const status = (data.error as { status?: number } | undefined)?.status;
  useEffect(() => {
    if (status === 401 || status === 403) {
      void useAuth.getState().refresh();
      navigate(status === 401 ? '/auth' : '/', { replace: true });
    }
  }, [status, navigate]);
  return data;
}

/** useAdminData for one GET route of the table; `input` null = nothing to load yet. */
export function useAdminRoute<R extends JsonRoute & { method: 'GET' }>(
  route: R,
  input: CallInput<R> | null,
): ApiData<OutputOf<R>> {
  return useAdminData<OutputOf<R>>(input === null ? null : routePath(route, ...([input] as InputArgs<R>)));
}
