import styled from 'styled-components';
import { messageOf } from '../../api/client';
import { useAuth } from '../../stores/auth';
import { toast } from '../../stores/toast';
import { LoginDialog } from '../auth/LoginDialog';
import { RegisterForm, type RegisterValues } from '../auth/RegisterForm';
import { Dialog } from '../ui/Dialog';

const Note = styled.p`
  margin: 0 0 ${({ theme }) => theme.space.md};
  color: ${({ theme }) => theme.colors.success};
  font-weight: 600;
`;

const Scroll = styled.div`
  max-height: calc(100dvh - 160px);
  overflow-y: auto;
  padding: 2px;
`;

export type CheckoutAuthStep = 'login' | 'register' | null;

/**
 * Signing in or registering before paying: 'Login Required' (which offers 'Create New Account')
 * and 'Create Account to Complete Purchase'. `onAuthenticated` carries on to payment; the guest's
 * cart has already moved to the account on the server.
 */
export function CheckoutAuthDialogs({
  step,
  onStep,
  onAuthenticated,
}: {
  step: CheckoutAuthStep;
  onStep: (step: CheckoutAuthStep) => void;
  onAuthenticated?: () => void;
}) {
  const register = async (values: RegisterValues) => {
    try {
      const created = await useAuth.getState().register(values);
      toast({
        title: 'Registration successful',
        description: `Welcome, ${created.username}!`,
        variant: 'success',
      });
      onStep(null);
      onAuthenticated?.();
    } catch (err) {
      toast({
        title: 'Registration Failed',
        description: messageOf(err, 'An error occurred during registration'),
        variant: 'destructive',
      });
      throw err;
    }
  };

  return (
    <>
      <LoginDialog
        open={step === 'login'}
        onClose={() => onStep(null)}
        description="Please log in to continue with checkout."
        onSignedIn={() => {
          onStep(null);
          onAuthenticated?.();
        }}
        onCreateAccount={() => onStep('register')}
      />
      <Dialog
        open={step === 'register'}
        onClose={() => onStep(null)}
        title="Create Account to Complete Purchase"
        testId="checkout-register-dialog"
      >
        <Note>Your cart will be preserved during registration</Note>
        <Scroll>
          <RegisterForm variant="checkout" onSubmit={register} />
        </Scroll>
      </Dialog>
    </>
  );
}
