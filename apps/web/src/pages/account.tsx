import { FormEvent, useState } from 'react';
import { ApiKey, AuditEntry, del, PasswordChanged, patch, post, Role, User } from '../api';
import { navigate, useDocumentTitle, useList } from '../hooks';
import { useSession } from '../session';
import { Column, fmtDate, Link, ListView, PageHeader, shortId } from '../ui';

export function LoginPage() {
  useDocumentTitle('Sign in');
  const { login } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    try {
      await login(email, password);
      navigate('/');
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <>
      <PageHeader title="Sign in" />
      <form className="stack-form card narrow" onSubmit={(e) => void submit(e)}>
        <label htmlFor="login-email">Email</label>
        <input
          id="login-email"
          type="email"
          autoComplete="username"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
        />
        <label htmlFor="login-password">Password</label>
        <input
          id="login-password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
        />
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit">Sign in</button>
        <p className="muted">
          No account? <Link to="/signup">Sign up</Link>; an administrator approves new accounts.
        </p>
      </form>
    </>
  );
}

export function SignupPage() {
  useDocumentTitle('Sign up');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    const form = Object.fromEntries(new FormData(event.currentTarget).entries());
    try {
      await post('/auth/signup', form);
      setDone(true);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  if (done)
    return (
      <>
        <PageHeader title="Sign up" />
        <p role="status">
          Thank you. Your account waits for approval by an administrator; you can sign in once it is approved.
        </p>
      </>
    );
  return (
    <>
      <PageHeader title="Sign up" />
      <form className="stack-form card narrow" onSubmit={(e) => void submit(e)}>
        <label htmlFor="signup-email">Email</label>
        <input id="signup-email" name="email" type="email" autoComplete="email" required />
        <label htmlFor="signup-username">Username</label>
        <input
          id="signup-username"
          name="username"
          autoComplete="username"
          pattern="[A-Za-z0-9._\-]{3,40}"
          required
        />
        <label htmlFor="signup-display">Display name</label>
        <input id="signup-display" name="display_name" autoComplete="name" required />
        <label htmlFor="signup-password">Password</label>
        <input
          id="signup-password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={10}
          required
        />
        <label htmlFor="signup-use">Intended use</label>
        <textarea id="signup-use" name="intended_use" rows={2} required />
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit">Sign up</button>
      </form>
    </>
  );
}

/** The sign-up rule for a new password (PASSWORD_MIN_LENGTH in the contracts). */
const PASSWORD_MIN_LENGTH = 10;

/** A signed-in user replaces their own password; their other sessions are signed out. */
export function PasswordPage() {
  useDocumentTitle('Change password');
  const { user } = useSession();
  const [error, setError] = useState<string | null>(null);
  const [signedOut, setSignedOut] = useState<number | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const text = (key: string): string => {
      const value = form.get(key);
      return typeof value === 'string' ? value : '';
    };
    setError(null);
    setSignedOut(null);
    if (text('new_password') !== text('repeat_password')) {
      setError('The new password and its repetition differ.');
      return;
    }
    try {
      const changed = await post<PasswordChanged>('/auth/password', {
        current_password: text('current_password'),
        new_password: text('new_password'),
      });
      formElement.reset();
      setSignedOut(changed.sessions_revoked);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  if (user === undefined) return <PageHeader title="Change password" />;
  if (user === null)
    return (
      <>
        <PageHeader title="Change password" />
        <p>
          <Link to="/login">Sign in</Link> to change your password.
        </p>
      </>
    );
  return (
    <>
      <PageHeader title="Change password" />
      <form className="stack-form card narrow" onSubmit={(e) => void submit(e)}>
        <label htmlFor="password-current">Current password</label>
        <input
          id="password-current"
          name="current_password"
          type="password"
          autoComplete="current-password"
          required
        />
        <label htmlFor="password-new">New password ({PASSWORD_MIN_LENGTH} characters or more)</label>
        <input
          id="password-new"
          name="new_password"
          type="password"
          autoComplete="new-password"
          minLength={PASSWORD_MIN_LENGTH}
          required
        />
        <label htmlFor="password-repeat">New password again</label>
        <input
          id="password-repeat"
          name="repeat_password"
          type="password"
          autoComplete="new-password"
          minLength={PASSWORD_MIN_LENGTH}
          required
        />
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        {signedOut !== null && (
          <p role="status">
            Your password is changed.{' '}
            {signedOut === 0
              ? 'You had no other sessions.'
              : `${signedOut} other session${signedOut === 1 ? ' was' : 's were'} signed out.`}
          </p>
        )}
        <button type="submit">Change password</button>
      </form>
    </>
  );
}

const ROLES: Role[] = ['researcher', 'operator', 'admin'];

/** What an administrator can do to an account in each status. */
const USER_ACTIONS: Partial<Record<string, { label: string; run: (id: string) => Promise<unknown> }>> = {
  pending: { label: 'Approve', run: (id) => post(`/admin/users/${id}/approve`, {}) },
  active: { label: 'Deactivate', run: (id) => patch(`/admin/users/${id}`, { status: 'deactivated' }) },
  deactivated: { label: 'Reactivate', run: (id) => patch(`/admin/users/${id}`, { status: 'active' }) },
};

export function AdminPage() {
  useDocumentTitle('Administration');
  const { user } = useSession();
  const users = useList<User>('/admin/users');
  const keys = useList<ApiKey>('/auth/api-keys');
  const audit = useList<AuditEntry>('/admin/audit');
  const [error, setError] = useState<string | null>(null);
  const [newKey, setNewKey] = useState<string | null>(null);
  const act = async (action: () => Promise<unknown>, reload: () => void) => {
    setError(null);
    try {
      await action();
      reload();
      audit.reload();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const createKey = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (key: string): string => {
      const value = form.get(key);
      return typeof value === 'string' ? value.trim() : '';
    };
    setError(null);
    try {
      const created = await post<{ key: string }>('/auth/api-keys', {
        name: text('name'),
        ...(text('user_id') ? { user_id: text('user_id') } : {}),
      });
      setNewKey(created.key);
      keys.reload();
      audit.reload();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const userColumns: Column<User>[] = [
    { header: 'User', cell: (u) => `${u.display_name} (${u.username})` },
    { header: 'Email', cell: (u) => u.email },
    {
      header: 'Role',
      cell: (u) => (
        <label>
          <span className="visually-hidden">Role of {u.username}</span>
          <select
            value={u.role}
            disabled={u.id === user?.id}
            onChange={(e) =>
              void act(() => patch(`/admin/users/${u.id}`, { role: e.target.value }), users.reload)
            }
          >
            {[...new Set([u.role, ...ROLES])].map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
      ),
    },
    { header: 'Status', cell: (u) => u.status },
    { header: 'Intended use', cell: (u) => u.intended_use ?? '—' },
    { header: 'Last login', cell: (u) => fmtDate(u.last_login_at) },
    {
      header: 'Actions',
      cell: (u) => {
        if (u.id === user?.id) return 'you';
        const action = USER_ACTIONS[u.status];
        return (
          <span className="actions">
            {action && (
              <button type="button" onClick={() => void act(() => action.run(u.id), users.reload)}>
                {action.label}
              </button>
            )}
          </span>
        );
      },
    },
  ];
  const keyColumns: Column<ApiKey>[] = [
    { header: 'Name', cell: (k) => k.name },
    { header: 'Prefix', cell: (k) => <code>{k.prefix}</code> },
    { header: 'Owner', cell: (k) => shortId(k.user_id) },
    { header: 'Role', cell: (k) => k.role ?? '—' },
    { header: 'Created', cell: (k) => fmtDate(k.created_at) },
    { header: 'Last used', cell: (k) => fmtDate(k.last_used_at) },
    {
      header: 'State',
      cell: (k) =>
        k.revoked_at ? (
          `revoked ${fmtDate(k.revoked_at)}`
        ) : (
          <button type="button" onClick={() => void act(() => del(`/auth/api-keys/${k.id}`), keys.reload)}>
            Revoke {k.prefix}
          </button>
        ),
    },
  ];
  const auditColumns: Column<AuditEntry>[] = [
    { header: 'When', cell: (a) => fmtDate(a.occurred_at) },
    { header: 'Action', cell: (a) => a.action },
    { header: 'Actor', cell: (a) => shortId(a.actor_user_id) },
    { header: 'Target', cell: (a) => a.target ?? '—' },
    { header: 'Details', cell: (a) => <code className="event-fields">{JSON.stringify(a.payload)}</code> },
  ];
  return (
    <>
      <PageHeader title="Administration" />
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <section aria-labelledby="users-heading">
        <h2 id="users-heading">Users</h2>
        <ListView list={users} what="users" columns={userColumns} rowKey={(u) => u.id} />
      </section>
      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading">API keys</h2>
        {user && (
          <form className="filters" onSubmit={(e) => void createKey(e)} aria-label="Create an API key">
            <label>
              Key name
              <input name="name" required />
            </label>
            <label>
              For user (id, empty for yourself)
              <input name="user_id" />
            </label>
            <button type="submit">Create key</button>
          </form>
        )}
        {newKey && (
          <p role="status" className="card">
            New key (shown once): <code>{newKey}</code>
          </p>
        )}
        <ListView list={keys} what="API keys" columns={keyColumns} rowKey={(k) => k.id} />
      </section>
      <section aria-labelledby="audit-heading">
        <h2 id="audit-heading">Audit log</h2>
        <ListView list={audit} what="audit entries" columns={auditColumns} rowKey={(a) => a.id} />
      </section>
    </>
  );
}
