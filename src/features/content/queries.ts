/** Build-time reads of the content collections, so pages never repeat sorting or lookup rules. */
import { getCollection, getEntry } from 'astro:content';

export async function getPostsNewestFirst() {
  const posts = await getCollection('blog');
  return posts.sort((a, b) => b.data.date.getTime() - a.data.date.getTime());
}

export async function getSitePage(id: 'home' | 'about') {
  const entry = await getEntry('site', id);
  if (!entry) throw new Error(`content/site/${id}.yaml is missing`);
  return entry.data;
}
