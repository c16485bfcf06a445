/** The blog feed (RSS 2.0): every post, newest first, with its title, link, date, summary and category. */
import rss from '@astrojs/rss';
import type { APIRoute } from 'astro';
import { getPostsNewestFirst } from '@/features/content/queries';
import { FEED } from '@/features/blog/feed';
import { postPath } from '@/lib/paths';
import { LOCALE } from '@/config/constants';

export const GET: APIRoute = async ({ site }) => {
  const posts = await getPostsNewestFirst();
  return rss({
    title: FEED.title,
    description: FEED.description,
    site: site!,
    trailingSlash: false,
    customData: `<language>${LOCALE}</language>`,
    items: posts.map((post) => ({
      title: post.data.title,
      link: postPath(post.id),
      pubDate: post.data.date,
      description: post.data.excerpt,
      categories: [post.data.category],
    })),
  });
};
