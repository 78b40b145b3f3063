import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { messageOf } from '../../api/client';
import type { ApiData } from '../../api/useApiData';
import { useAuth } from '../../stores/auth';
import { ButtonLink } from '../ui/Button';
import { CenteredMessage } from '../ui/Page';
import { Spinner } from '../ui/Spinner';

interface RecordProps<T> {
  loaded: ApiData<T>;
  loadingLabel: string;
  /** The heading when the server refuses: 'Receipt not available'. */
  unavailable: string;
  back: { href: string; label: string };
  children: (record: T) => ReactNode;
}

/**
 * One record the server answers for (a receipt, a prize claim): its refusal (the server's own
 * words) with a way back, a spinner while it loads, then the record.
 */
export function LoadedRecord<T>({ loaded, loadingLabel, unavailable, back, children }: RecordProps<T>) {
  if (loaded.error)
    return (
      <CenteredMessage role="alert">
        <h1>{unavailable}</h1>
        <p>{messageOf(loaded.error, 'It could not be loaded. Please try again.')}</p>
        <Link href={back.href} asChild>
          <ButtonLink>{back.label}</ButtonLink>
        </Link>
      </CenteredMessage>
    );
  if (!loaded.data) return <Spinner label={loadingLabel} />;
  return <>{children(loaded.data)}</>;
}

/**
 * A page about one of the customer's own records (a receipt, a prize claim): 'Authentication
 * Required' when signed out, else the record as `LoadedRecord` shows it.
 */
export function SignedInRecord<T>({
  toDo,
  ...record
}: RecordProps<T> & {
  /** What signing in is for: 'view your receipt'. */
  toDo: string;
}) {
  const user = useAuth((s) => s.user);
  const authStatus = useAuth((s) => s.status);
  if (!user)
    return authStatus === 'loading' ? (
      <Spinner label="Checking your account" />
    ) : (
      <CenteredMessage>
        <h1>Authentication Required</h1>
        <p>Please log in to {toDo}.</p>
        <Link href="/auth" asChild>
          <ButtonLink>Log In</ButtonLink>
        </Link>
      </CenteredMessage>
    );
  return <LoadedRecord {...record} />;
}
