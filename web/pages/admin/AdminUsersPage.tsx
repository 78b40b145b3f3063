import { useEffect, useState } from 'react';
import type { AdminUserView } from '../../../contract/admin';
import { apiSend, messageOf } from '../../api/client';
import {
  AdminHeader,
  Control,
  DialogActions,
  Muted,
  RowActions,
  StatusBadge,
  Table,
  TableWrap,
} from '../../components/admin/AdminUi';
import { ConfirmDialog } from '../../components/admin/ConfirmDialog';
import { formatShortDate, fullName } from '../../components/admin/formatAdmin';
import { useAdminData } from '../../components/admin/useAdminData';
import { useAdminMutation } from '../../components/admin/useAdminMutation';
import { Button } from '../../components/ui/Button';
import { Dialog } from '../../components/ui/Dialog';
import { ErrorBox } from '../../components/ui/Form';
import { PageContainer } from '../../components/ui/Page';
import { Spinner } from '../../components/ui/Spinner';
import { useAuth } from '../../stores/auth';
import { useSiteName } from '../../stores/site';

function RoleDialog({
  user,
  onClose,
  onSaved,
}: {
  user: AdminUserView | undefined;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [role, setRole] = useState<'user' | 'admin'>('user');
  const { busy, run } = useAdminMutation();
  useEffect(() => {
    if (user) setRole(user.role);
  }, [user]);
  const save = async () => {
    if (!user) return;
    const done = await run(() => apiSend('PATCH', `/api/admin/users/${user.id}/role`, { role }), {
      success: () => ({
        title: 'Role updated',
        description: `${user.username} is now ${role === 'admin' ? 'an admin' : 'a user'}.`,
      }),
      failureTitle: 'Update failed',
      fallback: 'The role could not be changed',
    });
    if (done !== undefined) onSaved();
  };
  return (
    <Dialog open={user !== undefined} onClose={onClose} title="Change Role" testId="role-dialog">
      <p>Choose the role for {user?.username}.</p>
      <Control>
        <label htmlFor="role-select">Role</label>
        <select id="role-select" value={role} onChange={(e) => setRole(e.target.value as 'user' | 'admin')}>
          <option value="user">User</option>
          <option value="admin">Admin</option>
        </select>
      </Control>
      <DialogActions>
        <Button type="button" $variant="ghost" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        {/* Disabled while unchanged (spec). */}
        <Button type="button" onClick={() => void save()} disabled={busy || role === user?.role}>
          Update Role
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** /admin/users: everyone with an account, Change Role and Delete User. */
export default function AdminUsersPage() {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = `Manage Users | ${siteName}`;
  }, [siteName]);
  const me = useAuth((s) => s.user);
  const list = useAdminData<AdminUserView[]>('/api/admin/users');
  const [changing, setChanging] = useState<AdminUserView>();
  const [deleting, setDeleting] = useState<AdminUserView>();
  const { busy, run } = useAdminMutation();

  const remove = async () => {
    if (!deleting) return;
    const user = deleting;
    const done = await run(
      () => apiSend('DELETE', `/api/admin/users/${user.id}`),
      {
        success: () => ({ title: 'User deleted', description: user.username }),
        failureTitle: 'Delete failed',
        fallback: 'The user could not be deleted',
      },
      () => setDeleting(undefined),
    );
    if (done !== undefined) list.reload();
  };

  return (
    <PageContainer>
      <AdminHeader title="Manage Users" />
      {list.error && !list.data ? (
        <ErrorBox role="alert">Error loading users: {messageOf(list.error, list.error.message)}</ErrorBox>
      ) : !list.data ? (
        <Spinner label="Loading users" />
      ) : list.data.length === 0 ? (
        <Muted>No users.</Muted>
      ) : (
        <TableWrap>
          <Table aria-label="Users">
            <thead>
              <tr>
                <th>ID</th>
                <th>Username</th>
                <th>Email</th>
                <th>Name</th>
                <th>Role</th>
                <th>Created</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((u) => (
                <tr key={u.id} data-testid="user-row">
                  <td className="num">{u.id}</td>
                  <td>{u.username}</td>
                  <td>{u.email}</td>
                  <td>{fullName(u) || '—'}</td>
                  <td>
                    <StatusBadge $status={u.role}>{u.role}</StatusBadge>
                  </td>
                  <td className="nowrap">{formatShortDate(u.createdAt)}</td>
                  <td>
                    <RowActions>
                      <Button
                        type="button"
                        $variant="ghost"
                        onClick={() => setChanging(u)}
                        disabled={u.id === me?.id}
                        aria-label={`Change role of ${u.username}`}
                      >
                        Change Role
                      </Button>
                      <Button
                        type="button"
                        $variant="ghost"
                        onClick={() => setDeleting(u)}
                        disabled={u.id === me?.id}
                        aria-label={`Delete ${u.username}`}
                      >
                        Delete
                      </Button>
                    </RowActions>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        </TableWrap>
      )}
      <RoleDialog
        user={changing}
        onClose={() => setChanging(undefined)}
        onSaved={() => {
          setChanging(undefined);
          list.reload();
        }}
      />
      <ConfirmDialog
        open={deleting !== undefined}
        title="Delete User"
        confirmLabel="Delete User"
        busy={busy}
        onConfirm={() => void remove()}
        onClose={() => setDeleting(undefined)}
      >
        <p>
          Delete {deleting?.username}? Their login and personal details are removed; their orders and entries
          stay as financial records. This cannot be undone.
        </p>
      </ConfirmDialog>
    </PageContainer>
  );
}
