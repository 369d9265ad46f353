import { describeTrendingRequest, firstPageElementId } from '@sticky/contracts/first-screen';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureFiles, loadList } from '@/test-support/giphy-fixtures.ts';
import { takeFirstPage } from './first-page.ts';

const request = { type: 'gifs', limit: 25, offset: 0, rating: 'g' };

/** The element as the server writes it into the HTML of `/` (apps/server/src/routes/spa.ts). */
function carry(body: string, described = describeTrendingRequest(request)) {
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = firstPageElementId;
  element.setAttribute('data-request', described);
  element.textContent = body;
  document.head.append(element);
}

const answer = {
  data: [{ id: 42, title: 'Carried', images: { fixed_width: { width: '200', height: '100' } } }],
  pagination: { total_count: 30, count: 1, offset: 0 },
  meta: { status: 200, msg: 'OK', response_id: 'from-html' },
};

describe('takeFirstPage', () => {
  afterEach(() => {
    document.getElementById(firstPageElementId)?.remove();
  });

  it('answers the request it was made for, as the client would, once', () => {
    carry(JSON.stringify(answer));
    const page = takeFirstPage(request);
    expect(page?.pagination).toEqual(answer.pagination);
    expect(page?.data[0]).toMatchObject({
      id: '42',
      title: 'Carried',
      response_id: 'from-html',
      images: { fixed_width: { width: 200, height: 100 } },
    });
    expect(document.getElementById(firstPageElementId)).toBeNull();
    expect(takeFirstPage(request)).toBeNull();
  });

  it('answers nothing else, and is gone after the first request', () => {
    for (const other of [
      { ...request, type: 'stickers' },
      { ...request, offset: 25 },
      { ...request, limit: 10 },
      { ...request, rating: 'pg-13' },
    ]) {
      carry(JSON.stringify(answer));
      expect(takeFirstPage(other)).toBeNull();
      expect(document.getElementById(firstPageElementId)).toBeNull();
      expect(takeFirstPage(request)).toBeNull();
    }
  });

  it('ignores what it cannot read: the server is asked instead', () => {
    carry('{"data": [');
    expect(takeFirstPage(request)).toBeNull();
    carry(JSON.stringify({ data: [], meta: {} }));
    expect(takeFirstPage(request)).toBeNull();
  });

  it('reads a real GIPHY answer item for item', () => {
    const recorded = loadList(fixtureFiles.trending);
    carry(JSON.stringify({ ...recorded, meta: { ...recorded.meta } }));
    expect(takeFirstPage(request)?.data.map((item) => item.id)).toEqual(
      recorded.data.map((item) => item.id),
    );
  });
});
