import type { ReactNode } from 'react';
import type { ApiRoute } from '../../../contract/apiRoute';
import { ButtonLink } from '../ui/Button';

/**
 * A CSV export as a plain link: the browser downloads it with the session cookie and names it from
 * the server's Content-Disposition (the route is a parameterless GET file route).
 */
export function CsvLink({
  route,
  fallbackName,
  children,
}: {
  route: ApiRoute & { method: 'GET'; kind: 'file' };
  fallbackName: string;
  children: ReactNode;
}) {
  return (
    <ButtonLink $variant="ghost" href={route.path} download={fallbackName}>
      {children}
    </ButtonLink>
  );
}
