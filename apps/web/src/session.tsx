import { createContext, ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { ApiError, get, post, User } from './api';

interface Session {
  /** undefined while the first /auth/me is in flight; null for an anonymous visitor. */
  user: User | null | undefined;
  login: (email: string, password: string) => Promise<User>;
  logout: () => Promise<void>;
  refresh: () => void;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<User | null | undefined>(undefined);
  const refresh = useCallback(() => {
    get<User>('/auth/me')
      .then(setUser)
      .catch((error: unknown) => {
        // 401: no session or a revoked one; any other failure also leaves the visitor anonymous.
        if (!(error instanceof ApiError) || error.status !== 401) console.warn('session check failed', error);
        setUser(null);
      });
  }, []);
  useEffect(refresh, [refresh]);
  const session = useMemo<Session>(
    () => ({
      user,
      refresh,
      login: async (email, password) => {
        const signedIn = await post<User>('/auth/login', { email, password });
        setUser(signedIn);
        return signedIn;
      },
      logout: async () => {
        await post('/auth/logout');
        setUser(null);
      },
    }),
    [user, refresh],
  );
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (session === null) throw new Error('useSession outside SessionProvider');
  return session;
}
