import { describeTrendingRequest, firstPageElementId } from '@sticky/contracts/first-screen';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { setUpFakeContent } from '@/test-support/content.ts';
import { fixtureFiles, loadList } from '@/test-support/giphy-fixtures.ts';
import { renderRoute } from '@/test-support/render.tsx';
import { HomePage } from './home-page.tsx';

/**
 * The HTML of `/` carries the first page of trending for a signed-in person
 * (apps/server/src/routes/spa.ts); the home page shows it without asking again.
 */
describe('HomePage with the first page in the HTML', () => {
  const content = setUpFakeContent();
  afterEach(() => {
    document.getElementById(firstPageElementId)?.remove();
  });

  function carry(type: string, answer: unknown) {
    const element = document.createElement('script');
    element.type = 'application/json';
    element.id = firstPageElementId;
    element.setAttribute(
      'data-request',
      describeTrendingRequest({ type, limit: 25, offset: 0, rating: 'g' }),
    );
    element.textContent = JSON.stringify(answer);
    document.head.append(element);
  }

  /** A raw `/v1` answer, as the server puts it in the page (numbers as strings and all). */
  const recorded = () => {
    const list = loadList(fixtureFiles.search);
    return {
      data: list.data.map((item) => ({
        ...item,
        images: {
          fixed_width: { url: `https://media.test/${item.id}.gif`, width: '200', height: '100' },
        },
      })),
      pagination: { total_count: 5, count: 5, offset: 0 },
      meta: { status: 200, msg: 'OK', response_id: 'in-the-html' },
    };
  };

  it('shows the carried page without a request, and asks for any other', async () => {
    const answer = recorded();
    carry('gifs', answer);
    renderRoute(<HomePage />, { path: '/', url: '/', content });
    // In the first render, with no loading state before it: a second render of the whole grid,
    // once a fetcher had answered, was one long task for the phone (docs/web.md, "First page").
    expect(screen.queryByRole('status')).toBeNull();
    const grid = screen.getByRole('list', { name: 'Trending' });
    const links = within(grid).getAllByRole('link');
    expect(links).toHaveLength(answer.data.length);
    expect(links[0]).toHaveAttribute('href', `/gif/${answer.data[0]!.slug}`);
    expect(content.gf.trending).not.toHaveBeenCalled();

    content.gf.trending.mockResolvedValue(loadList(fixtureFiles.stickers));
    await userEvent.click(screen.getByRole('button', { name: 'Stickers' }));
    await waitFor(() =>
      expect(content.gf.trending).toHaveBeenCalledWith({
        limit: 25,
        offset: 0,
        type: 'stickers',
        rating: 'g',
      }),
    );
  });

  it('asks the server when the page carries another type than the address asks for', async () => {
    carry('stickers', recorded());
    content.gf.trending.mockResolvedValue(loadList(fixtureFiles.trending));
    renderRoute(<HomePage />, { path: '/', url: '/', content });
    const grid = await screen.findByRole('list', { name: 'Trending' });
    expect(within(grid).getAllByRole('link')).toHaveLength(25);
    expect(content.gf.trending).toHaveBeenCalledTimes(1);
    expect(document.getElementById(firstPageElementId)).toBeNull();
  });
});
