import { describe, expect, it } from 'vitest';
import { buildCurlExample, buildShareXConfig } from './uploader-config.ts';

const secret = 'sticky_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';

describe('what the settings page gives to upload from elsewhere', () => {
  it('a curl command that posts a file with the token to this server', () => {
    const curl = buildCurlExample('https://gifs.example.com', secret);
    expect(curl).toContain(`-H "Authorization: Bearer ${secret}"`);
    expect(curl).toContain('-F "file=@cat.gif"');
    expect(curl.trim().endsWith('https://gifs.example.com/api/uploads')).toBe(true);
  });

  it('a ShareX uploader whose link is the receipt’s, which works before the item is made', () => {
    const config = JSON.parse(buildShareXConfig('https://gifs.example.com', secret)) as Record<
      string,
      unknown
    >;
    expect(config).toMatchObject({
      DestinationType: 'ImageUploader',
      RequestMethod: 'POST',
      RequestURL: 'https://gifs.example.com/api/uploads',
      Headers: { Authorization: `Bearer ${secret}` },
      Body: 'MultipartFormData',
      FileFormName: 'file',
      URL: '{json:uploads[0].url}',
      ErrorMessage: '{json:error.message}',
    });
  });
});
