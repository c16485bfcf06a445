/** The blog's RSS feed: its address and title. */
import { SITE } from '@/config/site';

export const FEED = {
  path: '/rss.xml',
  title: `${SITE.name} Blog`,
  description: 'Faith formation, parenting ideas and reading with little ones: articles for Catholic families from a family publisher in Sydney.',
} as const;
