import { useQuery } from '@tanstack/react-query';
import { clientConfigQueryOptions } from '../api/client-config.ts';

/** GIPHY's terms ask for this attribution wherever its content is shown. */
export function PoweredByGiphy() {
  const { data: config } = useQuery(clientConfigQueryOptions());
  if (config?.source !== 'giphy') return null;
  return <p className="text-xs font-semibold text-zinc-300">Powered by GIPHY</p>;
}
