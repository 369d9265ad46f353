import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { TagInput } from './tag-input.tsx';

function Harness({ initial = [] as string[] }) {
  const [tags, setTags] = useState(initial);
  return (
    <>
      <TagInput label="Tags" tags={tags} onChange={setTags} />
      <output aria-label="value">{tags.join('|')}</output>
    </>
  );
}

const value = () => screen.getByRole('status', { name: 'value' }).textContent;

describe('tag chips', () => {
  it('makes a chip on Enter or a comma, in lower case, once each', async () => {
    render(<Harness />);
    const user = userEvent.setup();
    const input = screen.getByLabelText('Tags');
    await user.type(input, 'Party{Enter}cats,');
    await user.type(input, 'party{Enter}');
    expect(value()).toBe('party|cats');
    expect(input).toHaveValue('');
    expect(screen.getByRole('list', { name: 'Tags added' })).toHaveTextContent('partycats');
  });

  it('takes a pasted list as several chips', async () => {
    render(<Harness />);
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Tags'));
    await user.paste('dance, happy ,, friday');
    expect(value()).toBe('dance|happy|friday');
  });

  it('takes the last chip back with Backspace, and any chip with its own button', async () => {
    render(<Harness initial={['one', 'two', 'three']} />);
    const user = userEvent.setup();
    await user.click(screen.getByLabelText('Tags'));
    await user.keyboard('{Backspace}');
    expect(value()).toBe('one|two');
    await user.click(screen.getByRole('button', { name: 'Remove tag one' }));
    expect(value()).toBe('two');
  });
});
