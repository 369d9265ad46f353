import { useQuery } from '@tanstack/react-query';
import { contentClientQueryOptions } from '../content-client.ts';

/** GIPHY's terms ask for this attribution wherever its content is shown. */
export function PoweredByGiphy() {
  // The client the grid's items came through: its config says where they are from.
  const { data: client } = useQuery(contentClientQueryOptions);
  if (client?.config.source !== 'giphy') return null;
  return <p className="text-xs font-semibold text-zinc-300">Powered by GIPHY</p>;
}
