-- Decoded megapixels (width × height × frames / 1e6) an upload cost its owner's daily
-- allowance, UPLOAD_MEGAPIXELS_PER_DAY (docs/uploads.md, "Receiving"): 0 until it was decoded.
ALTER TABLE "uploads" ADD COLUMN "megapixels" double precision DEFAULT 0 NOT NULL;
