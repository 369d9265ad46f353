import type { AppConfig } from '../../config/env.ts';
import { createMediaStore } from '../../storage/media-store.ts';
import type { MediaStore } from '../../storage/media-store.ts';
import { MediaProcessor } from './media-processor.ts';

/** Where media files are kept, and the decoder processes that make them. */
export interface Media {
  store: MediaStore;
  processor: MediaProcessor;
}

export interface MediaServices extends Media {
  /** Stops the decoder processes and the store's client (S3): its owner is closing. */
  close: () => Promise<void>;
}

/**
 * One server's, CLI command's or test app's media services, made by it and closed with it
 * (docs/architecture.md, "Services per app"): the server, its job workers and its routes share
 * one pool of IMPORT_WORKERS decoders, so uploads, imports and later renditions queue in one
 * place by priority (docs/uploads.md, "Processing"). Decoders start on first use.
 */
export function createMediaServices(
  config: Pick<AppConfig, 'storage' | 'mediaDir' | 'importLimits'>,
): MediaServices {
  const store = createMediaStore(config);
  const processor = new MediaProcessor({ workers: config.importLimits.workers });
  return {
    store,
    processor,
    close: async () => {
      await processor.close();
      store.close();
    },
  };
}
