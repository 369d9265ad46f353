import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderRoutes, testUser } from '@/test-support/render.tsx';
import { SearchBox } from './search-box.tsx';

function renderSearchBox(url = '/') {
  const page = <SearchBox />;
  return renderRoutes(
    [
      { path: '/', element: page },
      { path: '/search/:query', element: page },
    ],
    { url, session: testUser },
  );
}

describe('search box', () => {
  it.each([
    ['empty', ''],
    ['blank', '   '],
  ])("refuses %s text with 'Please write Something...'", async (_label, text) => {
    const { router } = renderSearchBox();
    const user = userEvent.setup();
    const input = screen.getByRole('searchbox', {
      name: 'Search GIFs, stickers and animated text',
    });
    if (text) await user.type(input, text);
    await user.click(screen.getByRole('button', { name: 'Search' }));

    expect(screen.getByRole('alert')).toHaveTextContent(/^Please write Something\.\.\.$/);
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Please write Something...');
    expect(input).toHaveFocus();
    expect(router.state.location.pathname).toBe('/');
  });

  it('clears the message once the visitor types again', async () => {
    renderSearchBox();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await user.type(screen.getByRole('searchbox'), 'c');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('opens /search/{trimmed text} on Enter and clears the input', async () => {
    const { router } = renderSearchBox();
    const user = userEvent.setup();
    const input = screen.getByRole('searchbox');
    await user.type(input, '  cute cats  {Enter}');
    expect(router.state.location.pathname).toBe('/search/cute%20cats');
    expect(input).toHaveValue('');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('encodes characters that would break the path', async () => {
    const { router } = renderSearchBox();
    const user = userEvent.setup();
    await user.type(screen.getByRole('searchbox'), '100% a/b?c#d{Enter}');
    expect(router.state.location.pathname).toBe('/search/100%25%20a%2Fb%3Fc%23d');
    expect(router.state.location.search).toBe('');
    expect(router.state.location.hash).toBe('');
  });

  it('keeps the current GIFs/Stickers/Text filter', async () => {
    const { router } = renderSearchBox('/search/dogs?type=stickers');
    await userEvent.setup().type(screen.getByRole('searchbox'), 'cats{Enter}');
    expect(router.state.location.pathname).toBe('/search/cats');
    expect(router.state.location.search).toBe('?type=stickers');
  });

  it('drops a filter that is not one of gifs, stickers, text', async () => {
    const { router } = renderSearchBox('/?type=%3Cscript%3E');
    await userEvent.setup().type(screen.getByRole('searchbox'), 'cats{Enter}');
    expect(router.state.location.search).toBe('');
  });

  it('caps the text at the 50 characters GIPHY accepts', () => {
    renderSearchBox();
    expect(screen.getByRole('searchbox')).toHaveAttribute('maxLength', '50');
  });
});
