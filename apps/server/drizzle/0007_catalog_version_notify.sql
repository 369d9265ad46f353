-- Every move of catalog_version is also announced (delivered when its transaction commits), so a
-- server can keep the version in memory instead of reading it for every cached page it sends.
CREATE OR REPLACE FUNCTION sticky_catalog_version_bump() RETURNS void LANGUAGE sql AS $$
  WITH bumped AS (UPDATE catalog_version SET version = version + 1 RETURNING version)
  SELECT pg_notify('sticky_catalog_version', version::text) FROM bumped
$$;
