import styled from 'styled-components';
import { Link } from 'wouter';
import { messageOf } from '../../api/client';
import { isSignInCancelled, useAuth } from '../../stores/auth';
import { toast } from '../../stores/toast';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { ForgotPassword } from './ForgotPassword';
import { SignInForm } from './SignInForm';

const Footer = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.sm};
  justify-content: space-between;
  margin-top: ${({ theme }) => theme.space.md};
`;

/**
 * 'Login Required': sign in without leaving the page. On success the page reloads (spec), unless
 * the caller carries on itself (`onSignedIn`, checkout). 'Create New Account' goes to the register
 * tab, or to the caller's own registration dialog (`onCreateAccount`).
 */
export function LoginDialog({
  open,
  onClose,
  description = 'Please log in to continue.',
  offerRegistration = true,
  onSignedIn,
  onCreateAccount,
}: {
  open: boolean;
  onClose: () => void;
  description?: string;
  offerRegistration?: boolean;
  onSignedIn?: () => void;
  onCreateAccount?: () => void;
}) {
  const signIn = async ({ username, password }: { username: string; password: string }) => {
    try {
      const user = await useAuth.getState().login(username, password);
      toast({
        title: 'Login Successful',
        description: 'You have been logged in successfully',
        variant: 'success',
      });
      if (onSignedIn) onSignedIn();
      else setTimeout(() => window.location.reload(), 800);
      return void user;
    } catch (err) {
      if (!isSignInCancelled(err))
        toast({
          title: 'Login Failed',
          description: messageOf(err, 'Please check your credentials and try again'),
          variant: 'destructive',
        });
      throw err;
    }
  };
  return (
    <Dialog open={open} onClose={onClose} title="Login Required">
      <p>{description}</p>
      <SignInForm onSubmit={signIn} submitLabels={['Log In']} idPrefix="dialog" />
      <ForgotPassword idPrefix="dialog-forgot" />
      <Footer>
        <Button type="button" $variant="ghost" onClick={onClose}>
          Cancel
        </Button>
        {offerRegistration &&
          (onCreateAccount ? (
            <Button type="button" $variant="ghost" onClick={onCreateAccount}>
              Create New Account
            </Button>
          ) : (
            <Link href="/auth?tab=register">Create New Account</Link>
          ))}
      </Footer>
    </Dialog>
  );
}
