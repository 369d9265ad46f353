import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { notify } from '@/lib/notify.ts';
import { meQueryKey } from './me-api.ts';
import { postLogoutAll } from './logout-all-api.ts';
import { postLogout } from './logout-api.ts';
import { startSignOutNavigation } from './sign-out-navigation.ts';

/**
 * docs/web.md, "The spec's rules the web keeps": on success clear the user, toast 'Logged Out' and
 * go to /landing; otherwise toast 'Something went wrong' and stay signed in. `everywhere` ends
 * every session of the person (docs/security.md, "Sessions"), then does the same.
 */
export function useLogout(scope: 'this-device' | 'everywhere' = 'this-device') {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: scope === 'everywhere' ? postLogoutAll : postLogout,
    onSuccess: async (answer) => {
      if (!answer.success) {
        void notify('error', 'Something went wrong');
        return;
      }
      startSignOutNavigation(queryClient);
      queryClient.setQueryData(meQueryKey, null);
      void notify('success', scope === 'everywhere' ? 'Signed out everywhere' : 'Logged Out');
      await navigate('/landing', { replace: true });
      // Nothing the previous user saw may survive into the next session on this tab. The
      // signed-in page does not refetch what is removed here: the clearing of the user
      // re-renders its guard, which swaps it for a loader without rendering it again.
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== meQueryKey[0] });
    },
    onError: (error) => {
      console.error('Logout failed', error);
      void notify('error', 'Something went wrong');
    },
  });
}
