// Pending invitations on the dashboard: where an invited learner who is already signed in lands (the
// accept-invitation view sends a signed-in user to the dashboard, docs/product.md#auth-views), with the
// organization, the role by its label (a built-in one in the reader's language), and accept or decline. The
// invitation whose link brought them (even through sign-up, verification and onboarding) comes first, with its
// Accept button focused.
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { Button } from '../../components/button';
import { roleLabelOf } from '../../entities/organizations/role-labels';
import { authClient } from '../../lib/auth-client';
import { toastError } from '../../lib/errors';
import { m } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { toast } from '../../lib/toast';
import { INVITATIONS_KEY, type Invitation, invitationsOptions } from './queries';

/** The invitations with `firstId`'s first, the others in their order. */
const withFirst = (invitations: Invitation[], firstId: string | undefined): Invitation[] => [
  ...invitations.filter((invitation) => invitation.id === firstId),
  ...invitations.filter((invitation) => invitation.id !== firstId),
];

/** Focuses `firstId`'s Accept button once, when it first shows. */
function useFocusedOnce(firstId: string | undefined, shown: boolean) {
  const button = useRef<HTMLButtonElement>(null);
  const focused = useRef(false);
  useEffect(() => {
    if (focused.current || !shown || !button.current) return;
    focused.current = true;
    button.current.focus();
    button.current.scrollIntoView({ block: 'center' });
  }, [shown]);
  return (id: string) => (id === firstId ? button : undefined);
}

export function InvitationsPanel({ firstId }: { firstId?: string | undefined }) {
  const invitations = useQuery(invitationsOptions);
  const list = withFirst(invitations.data ?? [], firstId);
  const refOf = useFocusedOnce(firstId, list[0]?.id === firstId);
  const answer = useMutation({
    mutationFn: async ({ id, accept }: { id: string; accept: boolean }) => {
      const path = accept ? '/organization/accept-invitation' : '/organization/reject-invitation';
      const { error } = await authClient.$fetch(path, { method: 'POST', body: { invitationId: id } });
      if (error) throw error;
      return accept;
    },
    onSuccess: async (accepted) => {
      toast.success(accepted ? m.invitation_accepted() : m.invitation_rejected());
      await queryClient.invalidateQueries({ queryKey: INVITATIONS_KEY });
    },
    onError: toastError,
  });
  if (list.length === 0) return null;
  return (
    <section
      aria-label={m.invitations_heading()}
      className="mb-6 rounded-2xl bg-brand-50 px-6 py-4 ring-1 ring-brand-100"
    >
      <h2 className="text-sm font-semibold text-slate-900">{m.invitations_heading()}</h2>
      <ul className="mt-3 space-y-3">
        {list.map((invitation) => (
          <li
            key={invitation.id}
            className={`flex flex-wrap items-center justify-between gap-3 ${invitation.id === firstId ? 'rounded-lg bg-white p-3 ring-2 ring-brand-300' : ''}`}
          >
            <p className="text-sm text-slate-700">
              {m.invitation_text({
                organization: invitation.organizationName,
                role: roleLabelOf(
                  invitation.role,
                  invitation.roleLabel ? [{ role: invitation.role, label: invitation.roleLabel }] : [],
                ),
              })}
            </p>
            <div className="flex gap-2">
              <Button
                ref={refOf(invitation.id)}
                pending={answer.isPending && answer.variables?.id === invitation.id && answer.variables.accept}
                disabled={answer.isPending}
                onClick={() => answer.mutate({ id: invitation.id, accept: true })}
              >
                {m.invitation_accept()}
              </Button>
              <Button
                variant="secondary"
                pending={answer.isPending && answer.variables?.id === invitation.id && !answer.variables.accept}
                disabled={answer.isPending}
                onClick={() => answer.mutate({ id: invitation.id, accept: false })}
              >
                {m.invitation_reject()}
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <Link
        to="/account/$pathname"
        params={{ pathname: 'organizations' }}
        className="mt-3 inline-block text-sm font-medium text-brand-700 hover:text-brand-800"
      >
        {m.invitations_all()}
      </Link>
    </section>
  );
}
