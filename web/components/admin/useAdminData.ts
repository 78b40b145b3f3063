import { useEffect } from 'react';
import { useLocation } from 'wouter';
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
