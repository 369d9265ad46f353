import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { clientConfigQueryOptions } from '@/lib/client-config-api.ts';
import { loadAnalyticsScript } from './analytics-script.ts';
import { postPageView } from './page-view-api.ts';

/** Views of the landing page are counted, and the analytics script (if any) runs. */
export function useLandingAnalytics() {
  const hasCounted = useRef(false);
  const { data: config } = useQuery(clientConfigQueryOptions);
  const scriptUrl = config?.analyticsScriptUrl ?? null;
  const integrity = config?.analyticsScriptIntegrity ?? null;

  useEffect(() => {
    // Once per visit of the page, even when React runs effects twice in development.
    if (hasCounted.current) return;
    hasCounted.current = true;
    postPageView('/landing').catch((error: unknown) => {
      console.debug('Page view not counted', error);
    });
  }, []);

  useEffect(() => {
    if (scriptUrl) loadAnalyticsScript(scriptUrl, integrity);
  }, [scriptUrl, integrity]);
}
