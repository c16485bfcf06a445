/**
 * A book's reviews (a buyer's published review, or one in the book's file) and the rating they add up to: one rule
 * for the page and its structured data.
 */

export interface BookReview {
  author: string;
  body: string;
  rating: number;
  /** A buyer's review has a short title, the day it was published, and perhaps the publisher's reply. */
  title?: string;
  /** When it was published (ISO). */
  date?: string;
  /** Written from the link in the buyer's own order's email. */
  verifiedBuyer?: boolean;
  reply?: string;
}

/** Ratings are out of this many stars. */
export const BEST_RATING = 5;

/** The average of the reviews' ratings, to one decimal place; undefined without reviews. */
export function averageRating(reviews: readonly Pick<BookReview, 'rating'>[]): number | undefined {
  if (reviews.length === 0) return undefined;
  const total = reviews.reduce((sum, review) => sum + review.rating, 0);
  return Math.round((total / reviews.length) * 10) / 10;
}

/** "5 out of 5 stars", "4.5 out of 5 stars": what a screen reader hears for a rating. */
export const ratingText = (rating: number) => `${rating} out of ${BEST_RATING} stars`;
