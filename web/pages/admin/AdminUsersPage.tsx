import { useEffect, useState } from 'react';
import type { AdminUserView } from '../../../contract/admin';
import { ADMIN_ACCOUNT_ROUTES } from '../../../contract/apiAdminAccounts';
import { formatShortDate } from '../../../contract/londonTime';
import { call } from '../../api/call';
import { messageOf } from '../../api/client';
import { AdminTable } from '../../components/admin/AdminTable';
import { AdminHeader, Control, DialogActions, StatusBadge } from '../../components/admin/AdminUi';
import { AgeCell, useAgeVerification } from '../../components/admin/AgeVerification';
import { ConfirmDialog } from '../../components/admin/ConfirmDialog';
import { fullName } from '../../components/admin/fullName';
import { useAdminRoute } from '../../components/admin/useAdminData';
import { useAdminMutation } from '../../components/admin/useAdminMutation';
import { useConfirmedDelete } from '../../components/admin/useConfirmedDelete';
import { Button } from '../../components/ui/Button';
import { Dialog } from '../../components/ui/Dialog';
import { PageContainer } from '../../components/ui/Page';
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
    const done = await run(
      () => call(ADMIN_ACCOUNT_ROUTES.changeRole, { params: { userId: user.id }, body: { role } }),
      {
        success: () => ({
          title: 'Role updated',
          description: `${user.username} is now ${role === 'admin' ? 'an admin' : 'a user'}.`,
        }),
        failureTitle: 'Update failed',
        fallback: 'The role could not be changed',
      },
    );
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
  const list = useAdminRoute(ADMIN_ACCOUNT_ROUTES.adminUsers, {});
  const [changing, setChanging] = useState<AdminUserView>();
  const deleting = useConfirmedDelete<AdminUserView>({
    remove: (user) => call(ADMIN_ACCOUNT_ROUTES.deleteUser, { params: { userId: user.id } }),
    toasts: {
      success: (user) => ({ title: 'User deleted', description: user.username }),
      failureTitle: 'Delete failed',
      fallback: 'The user could not be deleted',
    },
    refresh: list.reload,
  });
  const ageCheck = useAgeVerification(list.reload);

  return (
    <PageContainer>
      <AdminHeader title="Manage Users" />
      <AdminTable
        label="Users"
        rows={list.data}
        error={list.error}
        loadingLabel="Loading users"
        errorText={(e) => `Error loading users: ${messageOf(e, e.message)}`}
        empty="No users."
        rowKey={(u) => u.id}
        rowTestId="user-row"
        columns={[
          { header: 'ID', className: 'num', cell: (u) => u.id },
          { header: 'Username', cell: (u) => u.username },
          { header: 'Email', cell: (u) => u.email },
          { header: 'Name', cell: (u) => fullName(u) || '—' },
          { header: 'Role', cell: (u) => <StatusBadge $status={u.role}>{u.role}</StatusBadge> },
          { header: 'Date of birth', cell: (u) => <AgeCell user={u} onVerify={ageCheck.ask} /> },
          { header: 'Created', className: 'nowrap', cell: (u) => formatShortDate(u.createdAt) },
          {
            header: 'Taking a break',
            className: 'nowrap',
            cell: (u) => (u.selfExcludedUntil ? `Until ${formatShortDate(u.selfExcludedUntil)}` : '—'),
          },
        ]}
        actions={(u) => (
          <>
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
              onClick={() => deleting.ask(u)}
              disabled={u.id === me?.id}
              aria-label={`Delete ${u.username}`}
            >
              Delete
            </Button>
          </>
        )}
      />
      <RoleDialog
        user={changing}
        onClose={() => setChanging(undefined)}
        onSaved={() => {
          setChanging(undefined);
          list.reload();
        }}
      />
      {ageCheck.dialog}
      <ConfirmDialog {...deleting.dialog} title="Delete User" confirmLabel="Delete User">
        <p>
          Delete {deleting.target?.username}? Their login and personal details are removed; their orders and
          entries stay as financial records. This cannot be undone.
        </p>
      </ConfirmDialog>
    </PageContainer>
  );
}
