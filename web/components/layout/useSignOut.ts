import { useCallback } from 'react';
import { useAuth } from '../../stores/auth';
import { toast } from '../../stores/toast';

/**
 * Sign out as the spec describes: the server session ends, client state and storage are cleared,
 * then the browser goes home with a timestamp (after 600 ms, or 800 ms when the server failed).
 */
export function useSignOut() {
  return useCallback(async () => {
    let serverOk = true;
    try {
      await useAuth.getState().logout();
    } catch {
      serverOk = false;
    }
    try {
      localStorage.clear();
      sessionStorage.clear();
    } catch {
      // Storage may be unavailable; nothing else to clear.
    }
    if (serverOk) toast({ title: 'Logged out', description: 'You have been successfully logged out.' });
    else
      toast({
        title: 'Logout issue',
        description: 'Logged out locally, but there was a server error.',
        variant: 'destructive',
      });
    setTimeout(() => window.location.assign(`/?t=${Date.now()}`), serverOk ? 600 : 800);
  }, []);
}
