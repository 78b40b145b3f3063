import { useState } from 'react';
import type { AdminUserView } from '../../../contract/admin';
import { ageOn } from '../../../contract/age';
import { ADMIN_ACCOUNT_ROUTES } from '../../../contract/apiAdminAccounts';
import { formatShortDate } from '../../../contract/londonTime';
import { call } from '../../api/call';
import { Button } from '../ui/Button';
import { StatusBadge } from './AdminUi';
import { ConfirmDialog } from './ConfirmDialog';
import { useAdminMutation } from './useAdminMutation';

// Admin users: each account's date of birth and age check (docs/product.md#age-checks). Marking
// an account age-verified records the admin and the time on the server, and is audited.

/** The cell: date of birth and age, then 'Verified' with the date, or the button that asks. */
export function AgeCell({ user, onVerify }: { user: AdminUserView; onVerify: (u: AdminUserView) => void }) {
  if (!user.dateOfBirth) return <span>Not given</span>;
  return (
    <span>
      {formatShortDate(`${user.dateOfBirth}T12:00:00Z`)} ({ageOn(user.dateOfBirth)}){' '}
      {user.ageVerifiedAt ? (
        <StatusBadge $status="completed" title={`Age verified ${formatShortDate(user.ageVerifiedAt)}`}>
          Verified {formatShortDate(user.ageVerifiedAt)}
        </StatusBadge>
      ) : (
        <Button
          type="button"
          $variant="ghost"
          onClick={() => onVerify(user)}
          aria-label={`Mark ${user.username} age-verified`}
        >
          Mark age verified
        </Button>
      )}
    </span>
  );
}

/** The confirmation before marking an account age-verified, and the call. */
export function useAgeVerification(refresh: () => void) {
  const [target, setTarget] = useState<AdminUserView>();
  const { busy, run } = useAdminMutation();
  const confirm = async () => {
    if (!target) return;
    await run(
      () => call(ADMIN_ACCOUNT_ROUTES.verifyAge, { params: { userId: target.id } }),
      {
        success: () => ({ title: 'Age verified', description: target.username }),
        failureTitle: 'Age check not recorded',
        fallback: 'The age check could not be recorded',
      },
      () => {
        setTarget(undefined);
        refresh();
      },
    );
  };
  const dialog = (
    <ConfirmDialog
      open={target !== undefined}
      title="Mark age verified"
      confirmLabel="Mark age verified"
      busy={busy}
      onConfirm={() => void confirm()}
      onClose={() => setTarget(undefined)}
      testId="age-verification-dialog"
    >
      <p>
        Confirm that you have checked an identity document showing that {target?.username} was born on{' '}
        {target?.dateOfBirth ? formatShortDate(`${target.dateOfBirth}T12:00:00Z`) : ''}. Your name and the
        time are recorded.
      </p>
    </ConfirmDialog>
  );
  return { ask: setTarget, dialog };
}
