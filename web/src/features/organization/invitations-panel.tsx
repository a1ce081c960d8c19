// Pending invitations on the dashboard: where an invited learner who is already signed in lands (spec §2
// sends a signed-in user from the accept-invitation view to the dashboard), with the organization, the
// role, and accept or decline.
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Button } from '../../components/button';
import { authClient } from '../../lib/auth-client';
import { toastError } from '../../lib/errors';
import { m } from '../../lib/i18n';
import { queryClient } from '../../lib/query-client';
import { toast } from '../../lib/toast';
import { INVITATIONS_KEY, invitationsOptions } from '../dashboard/queries';

export function InvitationsPanel() {
  const invitations = useQuery(invitationsOptions);
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
  if (!invitations.data?.length) return null;
  return (
    <section
      aria-label={m.invitations_heading()}
      className="mb-6 rounded-2xl bg-brand-50 px-6 py-4 ring-1 ring-brand-100"
    >
      <h2 className="text-sm font-semibold text-slate-900">{m.invitations_heading()}</h2>
      <ul className="mt-3 space-y-3">
        {invitations.data.map((invitation) => (
          <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm text-slate-700">
              {m.invitation_text({ organization: invitation.organizationName, role: invitation.role })}
            </p>
            <div className="flex gap-2">
              <Button
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
