import { afterEach, describe, expect, it } from 'vitest';
import { loadAnalyticsScript } from './analytics-script.ts';

const scripts = () => document.head.querySelectorAll('script[data-sticky-analytics]');

afterEach(() => {
  scripts().forEach((node) => node.remove());
});

describe('loadAnalyticsScript', () => {
  it('adds the script once, deferred', () => {
    loadAnalyticsScript('https://stats.example.com/a.js');
    loadAnalyticsScript('https://stats.example.com/a.js');
    expect(scripts()).toHaveLength(1);
    const script = scripts()[0] as HTMLScriptElement;
    expect(script.src).toBe('https://stats.example.com/a.js');
    // Runs after the document is parsed, never holding up the page.
    expect(script.defer).toBe(true);
    expect(script).toHaveAttribute('defer');
    // In <head>, after what the page itself loads.
    expect(document.head.lastElementChild).toBe(script);
  });

  it('carries the integrity hash, fetched without credentials, when the operator gives one', () => {
    const hash = 'sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC';
    loadAnalyticsScript('https://stats.example.com/a.js', hash);
    const script = scripts()[0] as HTMLScriptElement;
    expect(script).toHaveAttribute('integrity', hash);
    expect(script).toHaveAttribute('crossorigin', 'anonymous');
    script.remove();
    loadAnalyticsScript('https://stats.example.com/a.js', null);
    expect(scripts()[0]).not.toHaveAttribute('integrity');
  });

  it.each(['javascript:alert(1)', 'data:text/javascript,1', 'blob:https://x/1'])(
    'refuses %s',
    (url) => {
      loadAnalyticsScript(url);
      expect(scripts()).toHaveLength(0);
    },
  );
});
