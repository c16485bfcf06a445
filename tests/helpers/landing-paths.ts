/** The search-landing pages: the cities with their own page, and all 30 landing paths. */
export const CITIES: readonly string[] = ['sydney', 'melbourne', 'brisbane', 'perth', 'adelaide', 'new-york', 'los-angeles', 'chicago', 'london', 'birmingham', 'manchester'];

export const LANDING_PATHS: readonly string[] = [
  '/catholic-childrens-books',
  '/faith-formation-for-kids',
  '/catholic-childrens-book-guide',
  '/faith-journey-for-kids',
  '/catholic-resources-for-parents',
  '/catholic-family-education',
  '/catholic-books-australia',
  '/catholic-books-for-kids-australia',
  '/buy-catholic-childrens-books',
  '/best-catholic-childrens-books',
  ...CITIES.map((city) => `/catholic-books-${city}`),
  '/communion-gifts',
  '/catholic-kids-gifts',
  '/baptism-gifts',
  '/confirmation-gifts',
  '/catholic-books-for-toddlers',
  '/catholic-board-books-for-babies',
  '/catholic-books-for-preschool-kindergarten',
  '/catholic-books-for-kids-ages-5-9',
  '/catholic-counting-books-for-kids',
];
