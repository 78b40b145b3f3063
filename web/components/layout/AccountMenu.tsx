import styled from 'styled-components';
import { Link } from 'wouter';
import type { PublicUser } from '../../../contract/auth';
import { displayName, isAdmin } from '../../stores/auth';
import { useDropdown } from './useDropdown';
import { useSignOut } from './useSignOut';

const Avatar = styled.span<{ $admin: boolean }>`
  position: relative;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 34px;
  height: 34px;
  border-radius: 50%;
  background: ${({ theme }) => theme.colors.accent};
  color: ${({ theme }) => theme.colors.accentText};
  font-weight: 700;
  &::after {
    content: '';
    display: ${({ $admin }) => ($admin ? 'block' : 'none')};
    position: absolute;
    top: -1px;
    right: -1px;
    width: 10px;
    height: 10px;
    border-radius: 50%;
    background: ${({ theme }) => theme.colors.danger};
    border: 2px solid ${({ theme }) => theme.colors.brand};
  }
`;

const AdminBadge = styled.span`
  background: ${({ theme }) => theme.colors.danger};
  color: ${({ theme }) => theme.colors.textInverse};
  font-size: ${({ theme }) => theme.fontSizes.xs};
  font-weight: 700;
  padding: 1px 6px;
  border-radius: ${({ theme }) => theme.radii.sm};
`;

const Toggle = styled.button`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.xs};
  min-height: 44px;
  background: transparent;
  color: ${({ theme }) => theme.colors.textInverse};
  border: 1px solid rgba(255, 255, 255, 0.35);
  border-radius: ${({ theme }) => theme.radii.pill};
  padding: 0 ${({ theme }) => theme.space.sm} 0 4px;
  font-weight: 600;
  cursor: pointer;
`;

const Menu = styled.div`
  position: absolute;
  right: 0;
  top: calc(100% + 8px);
  min-width: 240px;
  background: ${({ theme }) => theme.colors.surface};
  color: ${({ theme }) => theme.colors.text};
  border-radius: ${({ theme }) => theme.radii.md};
  box-shadow: ${({ theme }) => theme.shadows.raised};
  padding: ${({ theme }) => theme.space.xs} 0;
  z-index: 60;
  p { margin: 0; padding: ${({ theme }) => `${theme.space.xs} ${theme.space.md}`}; font-size: ${({ theme }) => theme.fontSizes.sm}; color: ${({ theme }) => theme.colors.textMuted}; border-bottom: 1px solid ${({ theme }) => theme.colors.border}; }
  a, button { display: block; width: 100%; text-align: left; padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`}; color: inherit; text-decoration: none; background: none; border: 0; cursor: pointer; font-weight: 500; }
  a:hover, button:hover { background: ${({ theme }) => theme.colors.muted}; }
`;

const Wrap = styled.div`
  position: relative;
`;

const initialOf = (user: PublicUser) => displayName(user).charAt(0).toUpperCase();

export function UserAvatar({ user }: { user: PublicUser }) {
  return (
    <Avatar $admin={isAdmin(user)} aria-hidden="true">
      {initialOf(user)}
    </Avatar>
  );
}

/** Desktop: 'My Account' dropdown with the user's email, profile, entries, admin and logout. */
export function AccountMenu({ user }: { user: PublicUser }) {
  const { open, setOpen, wrapRef } = useDropdown();
  const signOut = useSignOut();

  return (
    <Wrap ref={wrapRef}>
      <Toggle type="button" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        <UserAvatar user={user} />
        My Account
        {isAdmin(user) && <AdminBadge>ADMIN</AdminBadge>}
      </Toggle>
      {open && (
        <Menu role="menu" aria-label="My Account">
          <p className="email">{user.email}</p>
          <Link href="/profile" role="menuitem">
            My Profile
          </Link>
          <Link href="/my-competitions" role="menuitem">
            My Entries
          </Link>
          {isAdmin(user) && (
            <Link href="/admin" role="menuitem">
              Admin Dashboard
            </Link>
          )}
          <button type="button" role="menuitem" onClick={() => void signOut()}>
            Logout
          </button>
        </Menu>
      )}
    </Wrap>
  );
}

const MobileAccount = styled.div`
  border-top: 1px solid rgba(255, 255, 255, 0.2);
  margin-top: ${({ theme }) => theme.space.xs};
  padding-top: ${({ theme }) => theme.space.xs};
  display: flex;
  flex-direction: column;
  color: ${({ theme }) => theme.colors.textInverse};
  strong { display: flex; align-items: center; gap: ${({ theme }) => theme.space.xs}; padding: ${({ theme }) => theme.space.sm}; }
  a, button { color: inherit; text-decoration: none; padding: ${({ theme }) => theme.space.sm}; text-align: left; background: none; border: 0; font-weight: 600; cursor: pointer; }
`;

/** Mobile menu part: Welcome greeting, the same links (Admin Panel for admins) and Sign Out. */
export function MobileAccountLinks({ user }: { user: PublicUser }) {
  const signOut = useSignOut();
  return (
    <MobileAccount>
      <strong>
        <UserAvatar user={user} /> Welcome, {displayName(user)}
        {isAdmin(user) && <AdminBadge>ADMIN</AdminBadge>}
      </strong>
      <Link href="/profile">My Profile</Link>
      <Link href="/my-competitions">My Entries</Link>
      {isAdmin(user) && <Link href="/admin">Admin Panel</Link>}
      <button type="button" onClick={() => void signOut()}>
        Sign Out
      </button>
    </MobileAccount>
  );
}
