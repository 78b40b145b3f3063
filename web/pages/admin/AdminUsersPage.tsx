import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { Link } from 'wouter';
import type { AdminUserView } from '../../../contract/admin';
import { ADMIN_ACCOUNT_ROUTES } from '../../../contract/apiAdminAccounts';
import { ADMIN_BACK_OFFICE_ROUTES } from '../../../contract/apiAdminBackOffice';
import { formatShortDate } from '../../../contract/londonTime';
import { call } from '../../api/call';
import { messageOf } from '../../api/client';
import { AdminTable } from '../../components/admin/AdminTable';
import {
  AdminHeader,
  Control,
  DialogActions,
  SearchBox,
  StatusBadge,
  Toolbar,
} from '../../components/admin/AdminUi';
import { AgeCell, useAgeVerification } from '../../components/admin/AgeVerification';
import { ConfirmDialog } from '../../components/admin/ConfirmDialog';
import { fullName } from '../../components/admin/fullName';
import { useAdminRoute } from '../../components/admin/useAdminData';
import { useAdminMutation } from '../../components/admin/useAdminMutation';
import { useConfirmedDelete } from '../../components/admin/useConfirmedDelete';
import { Button, ButtonLink } from '../../components/ui/Button';
import { Dialog } from '../../components/ui/Dialog';
import { PageContainer } from '../../components/ui/Page';
import { useAuth } from '../../stores/auth';
import { useSiteName } from '../../stores/site';

/** Username (to the customer view), name and e-mail in one cell, so the table fits its page. */
const CustomerCell = styled.div`
  display: grid;
  min-width: 12rem;
  small { color: ${({ theme }) => theme.colors.textMuted}; overflow-wrap: anywhere; }
`;

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

/** /admin/users: everyone with an account (or a search), the customer view, Change Role and Delete User. */
export default function AdminUsersPage() {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = `Manage Users | ${siteName}`;
  }, [siteName]);
  const me = useAuth((s) => s.user);
  const [search, setSearch] = useState('');
  // Everyone, or (searching) the first 100 matches by id, name, e-mail or username.
  const all = useAdminRoute(ADMIN_ACCOUNT_ROUTES.adminUsers, search ? null : {});
  const found = useAdminRoute(
    ADMIN_BACK_OFFICE_ROUTES.customers,
    search ? { query: { search, pageSize: '100' } } : null,
  );
  const list = search
    ? { data: found.data?.customers, error: found.error, reload: found.reload }
    : { data: all.data, error: all.error, reload: all.reload };
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
      <Toolbar>
        <SearchBox
          id="customer-search"
          label="Find a customer"
          placeholder="Name, e-mail, username or id"
          onSearch={setSearch}
        />
      </Toolbar>
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
          {
            header: 'Customer',
            cell: (u) => (
              <CustomerCell>
                <Link href={`/admin/users/${u.id}`}>{u.username}</Link> <small>#{u.id}</small>
                <span>{fullName(u) || '—'}</span>
                <small>{u.email}</small>
              </CustomerCell>
            ),
          },
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
            <Link href={`/admin/users/${u.id}`} asChild>
              <ButtonLink $variant="ghost" aria-label={`View ${u.username}`}>
                View
              </ButtonLink>
            </Link>
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
