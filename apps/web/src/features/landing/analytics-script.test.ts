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
  });

  it.each(['javascript:alert(1)', 'data:text/javascript,1', 'blob:https://x/1'])(
    'refuses %s',
    (url) => {
      loadAnalyticsScript(url);
      expect(scripts()).toHaveLength(0);
    },
  );
});
