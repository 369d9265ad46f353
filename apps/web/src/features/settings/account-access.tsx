import { useMutation, useQueryClient } from '@tanstack/react-query';
import { KeyRound, LogOut, ShieldOff } from 'lucide-react';
import { useState } from 'react';
import { buttonStyles } from '@/components/button-styles.ts';
import { ConfirmDialog } from '@/components/confirm-dialog.tsx';
import { useLogout } from '@/features/auth';
import { notify } from '@/lib/notify.ts';
import { revokeAllTokens, tokensQueryKey } from './api/tokens.ts';

/**
 * "Sign out everywhere" and, beside it, "Revoke every token": signing out does not touch tokens,
 * so a person who lost a laptop does both (docs/security.md, "Sessions", "API tokens").
 */
export function AccountAccess({ onTokensRevoked }: { onTokensRevoked: () => void }) {
  const queryClient = useQueryClient();
  const logoutEverywhere = useLogout('everywhere');
  const [isConfirming, setIsConfirming] = useState(false);
  const revokeAll = useMutation({
    mutationFn: revokeAllTokens,
    onSuccess: async ({ revoked }) => {
      await queryClient.invalidateQueries({ queryKey: tokensQueryKey });
      onTokensRevoked();
      setIsConfirming(false);
      void notify('success', revoked === 1 ? '1 token revoked' : `${revoked} tokens revoked`);
    },
  });
  return (
    <section aria-labelledby="access-heading" className="flex flex-col gap-3">
      <h2 id="access-heading" className="flex items-center gap-2 text-xl font-bold">
        <ShieldOff className="size-5" aria-hidden="true" />
        Sessions and tokens
      </h2>
      <p className="text-sm text-gray-300">
        Signing out everywhere ends every browser session, this one included; your API tokens keep
        working until you revoke them.
      </p>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={buttonStyles.secondary}
          aria-disabled={logoutEverywhere.isPending}
          onClick={() => !logoutEverywhere.isPending && logoutEverywhere.mutate()}
        >
          <LogOut className="size-4" aria-hidden="true" />
          Sign out everywhere
        </button>
        <button
          type="button"
          className={buttonStyles.secondary}
          onClick={() => setIsConfirming(true)}
        >
          <KeyRound className="size-4" aria-hidden="true" />
          Revoke every token
        </button>
      </div>
      <ConfirmDialog
        title="Revoke every token?"
        description="Every script and tool that uses one of your API tokens stops working at once. This cannot be undone."
        open={isConfirming}
        onOpenChange={(isOpen) => {
          if (isOpen) return;
          revokeAll.reset();
          setIsConfirming(false);
        }}
        error={revokeAll.error}
        isPending={revokeAll.isPending}
        label="Revoke every token"
        pendingLabel="Revoking…"
        onConfirm={() => revokeAll.mutate()}
      />
    </section>
  );
}
