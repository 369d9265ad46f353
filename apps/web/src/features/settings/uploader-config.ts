/**
 * What the settings page shows a person to upload from outside the browser: a curl command
 * and a ShareX custom uploader (`.sxcu`), both against this server with their token.
 */

/** Stands where the token goes until one is made (the page then shows the real one). */
export const tokenPlaceholder = '<your token>';

export function buildCurlExample(origin: string, secret: string): string {
  return [
    `curl -H "Authorization: Bearer ${secret}" \\`,
    `  -F "file=@cat.gif" -F "tags=cat,funny" \\`,
    `  ${origin}/api/uploads`,
  ].join('\n');
}

/**
 * ShareX's custom uploader: a multipart POST with the file as `file`; the link is the first
 * receipt's `url`, which leads to the item once the upload is processed.
 */
export function buildShareXConfig(origin: string, secret: string): string {
  const config = {
    Version: '16.1.0',
    Name: `Sticky (${new URL(origin).host})`,
    DestinationType: 'ImageUploader',
    RequestMethod: 'POST',
    RequestURL: `${origin}/api/uploads`,
    Headers: { Authorization: `Bearer ${secret}` },
    Body: 'MultipartFormData',
    FileFormName: 'file',
    URL: '{json:uploads[0].url}',
    ErrorMessage: '{json:error.message}',
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}
