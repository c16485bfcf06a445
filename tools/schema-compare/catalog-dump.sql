-- A schema-only dump as rows (kind, name, definition), for comparing two databases built from different migration
-- files. Everything the migrations create outside PostgreSQL's own schemas and the migration-history table.
with
  ns as (
    select oid, nspname from pg_namespace
    where nspname not in ('pg_catalog', 'information_schema', 'pg_toast', 'supabase_migrations') and nspname !~ '^pg_(toast_)?temp_'
  ),
  rels as (
    select c.oid, c.relkind, ns.nspname || '.' || c.relname as name, c.relacl, c.relowner, c.relrowsecurity, c.relforcerowsecurity, c.reloptions
    from pg_class c join ns on ns.oid = c.relnamespace
  ),
  procs as (
    select p.oid, ns.nspname || '.' || p.proname || '(' || pg_get_function_identity_arguments(p.oid) || ')' as name, p.proacl, p.proowner, p.prokind
    from pg_proc p join ns on ns.oid = p.pronamespace
  ),
  acl as (
    select 'acl ' || case r.relkind when 'S' then 'sequence' else 'table' end as kind, r.name, a.*
    from rels r, aclexplode(coalesce(r.relacl, acldefault(case r.relkind when 'S' then 's'::"char" else 'r'::"char" end, r.relowner))) a
    where r.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
    union all
    select 'acl function', p.name, a.* from procs p, aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a
    union all
    select 'acl schema', ns.nspname::text, a.* from ns join pg_namespace n on n.oid = ns.oid, aclexplode(coalesce(n.nspacl, acldefault('n', n.nspowner))) a
    union all
    select 'acl column', r.name || '.' || att.attname, a.*
    from rels r join pg_attribute att on att.attrelid = r.oid, aclexplode(att.attacl) a
    where att.attacl is not null
  )
select kind, name, definition from (
  select 'schema' as kind, ns.nspname::text as name, pg_get_userbyid(n.nspowner)::text as definition from ns join pg_namespace n on n.oid = ns.oid
  union all
  select 'extension', extname, extversion || ' in ' || extnamespace::regnamespace::text from pg_extension
  union all
  select 'type', ns.nspname || '.' || t.typname,
    t.typtype::text || ' ' || coalesce((select string_agg(e.enumlabel, ',' order by e.enumsortorder) from pg_enum e where e.enumtypid = t.oid), '')
      || coalesce(' base ' || format_type(t.typbasetype, t.typtypmod), '') || ' notnull=' || t.typnotnull || coalesce(' default ' || t.typdefault, '')
  from pg_type t join ns on ns.oid = t.typnamespace
  where t.typtype in ('e', 'd', 'r', 'm') or (t.typtype = 'c' and (select relkind from pg_class where oid = t.typrelid) = 'c')
  union all
  select 'relation', name, relkind::text || ' owner=' || pg_get_userbyid(relowner) || ' rls=' || relrowsecurity || ' force_rls=' || relforcerowsecurity
    || coalesce(' options=' || array_to_string(reloptions, ','), '')
  from rels where relkind in ('r', 'p', 'v', 'm', 'S', 'f', 'c')
  union all
  -- Columns by their place among the live ones (a dropped column leaves a gap in attnum, not in the order).
  select 'column', r.name || '.' || a.attname,
    row_number() over (partition by r.oid order by a.attnum) || ': ' || format_type(a.atttypid, a.atttypmod)
      || case when a.attnotnull then ' not null' else '' end
      || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '')
      || case a.attgenerated when 's' then ' generated stored' else '' end
      || case a.attidentity when 'a' then ' identity always' when 'd' then ' identity by default' else '' end
      || coalesce(' collate ' || nullif(co.collname, 'default'), '')
  from rels r join pg_attribute a on a.attrelid = r.oid and a.attnum > 0 and not a.attisdropped
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    left join pg_collation co on co.oid = a.attcollation
  where r.relkind in ('r', 'p', 'v', 'm', 'f', 'c')
  union all
  select 'constraint', r.name || '.' || con.conname,
    con.contype::text || ' ' || pg_get_constraintdef(con.oid) || case when con.condeferrable then ' deferrable' else '' end
      || case when con.condeferred then ' initially deferred' else '' end || case when not con.convalidated then ' not valid' else '' end
  from pg_constraint con join rels r on r.oid = con.conrelid
  union all
  select 'constraint', ns.nspname || '.' || t.typname || '.' || con.conname, pg_get_constraintdef(con.oid)
  from pg_constraint con join pg_type t on t.oid = con.contypid join ns on ns.oid = t.typnamespace
  union all
  select 'index', r.name, pg_get_indexdef(r.oid) from rels r where r.relkind in ('i', 'I')
  union all
  select 'sequence', r.name, format('%s start %s increment %s min %s max %s cache %s cycle %s owned by %s', format_type(s.seqtypid, null), s.seqstart, s.seqincrement,
      s.seqmin, s.seqmax, s.seqcache, s.seqcycle,
      (select dr.name || '.' || a.attname from pg_depend dep join rels dr on dr.oid = dep.refobjid
         join pg_attribute a on a.attrelid = dep.refobjid and a.attnum = dep.refobjsubid
       where dep.classid = 'pg_class'::regclass and dep.objid = r.oid and dep.deptype in ('a', 'i')))
  from rels r join pg_sequence s on s.seqrelid = r.oid
  union all
  select 'view', r.name, pg_get_viewdef(r.oid) from rels r where r.relkind in ('v', 'm')
  union all
  select 'function', p.name, 'owner=' || pg_get_userbyid(p.proowner) || E'\n' || case when p.prokind = 'a' then 'aggregate' else pg_get_functiondef(p.oid) end
  from procs p
  union all
  select 'trigger', r.name || '.' || t.tgname, pg_get_triggerdef(t.oid) || ' enabled=' || t.tgenabled::text
  from pg_trigger t join rels r on r.oid = t.tgrelid where not t.tgisinternal
  union all
  select 'event trigger', evtname, evtevent || ' ' || evtfoid::regproc::text || ' ' || evtenabled::text from pg_event_trigger
  union all
  select 'policy', schemaname || '.' || tablename || '.' || policyname,
    permissive || ' ' || cmd || ' to ' || array_to_string(roles, ',') || coalesce(' using ' || qual, '') || coalesce(' with check ' || with_check, '')
  from pg_policies where schemaname in (select nspname from ns)
  union all
  select kind, name, pg_get_userbyid(grantor) || ' -> ' || case when grantee = 0 then 'PUBLIC' else pg_get_userbyid(grantee) end || ': ' || privilege_type
    || case when is_grantable then ' with grant option' else '' end
  from acl
  union all
  select 'default acl', coalesce(pg_get_userbyid(da.defaclrole), '') || ' in ' || coalesce(da.defaclnamespace::regnamespace::text, 'all schemas') || ' on ' || da.defaclobjtype::text,
    coalesce((select string_agg(case when a.grantee = 0 then 'PUBLIC' else pg_get_userbyid(a.grantee) end || '=' || a.privilege_type, ',' order by 1)
      from aclexplode(da.defaclacl) a), '')
  from pg_default_acl da
  union all
  select 'comment', coalesce(r.name, p.name, ns.nspname, 'object ' || d.classoid::regclass::text) || case when d.objsubid > 0 then '.' || a.attname else '' end, d.description
  from pg_description d
    left join rels r on d.classoid = 'pg_class'::regclass and r.oid = d.objoid
    left join procs p on d.classoid = 'pg_proc'::regclass and p.oid = d.objoid
    left join ns on d.classoid = 'pg_namespace'::regclass and ns.oid = d.objoid
    left join pg_attribute a on a.attrelid = d.objoid and a.attnum = d.objsubid and d.classoid = 'pg_class'::regclass
  where r.oid is not null or p.oid is not null or ns.oid is not null
    or (d.classoid = 'pg_constraint'::regclass and exists (select 1 from pg_constraint c join rels cr on cr.oid = c.conrelid where c.oid = d.objoid))
    or (d.classoid in ('pg_policy'::regclass, 'pg_trigger'::regclass))
) dump
order by kind, name, definition;
