/** Site identity and navigation: data, so pages and components never repeat these literals. */

export const SITE = {
  name: 'Awesome Catholic Kids',
  publisher: 'Awesome Catholic Kids Publishing',
  tagline: "Catholic children's books, written and published in Sydney",
  description: "Joyful Catholic children's books from a family publisher in Sydney, starting with a bright counting board book that counts through the treasures of the faith.",
  email: 'hello@awesomecatholickids.com.au',
  location: 'Sydney, Australia',
  /** Where the publisher is, for structured data. */
  address: { locality: 'Sydney', region: 'NSW', country: 'AU' },
  /** Registered for GST: the back office's sales show the GST included in Australian sales, and the CSV codes it. */
  gstRegistered: true,
  defaultOgImage: '/images/og-default.png',
} as const;

export interface NavLink {
  label: string;
  href: string;
}

export const HEADER_LINKS: readonly NavLink[] = [
  { label: 'Home', href: '/' },
  { label: 'About Us', href: '/about' },
  { label: 'Our Books', href: '/book' },
  { label: 'Blog', href: '/blog' },
  { label: 'Contact Us', href: '/contact' },
  { label: 'Store', href: '/store' },
  // Schools and parishes buy by the class: the way to quotes and invoices is in the header and the phone menu too.
  { label: 'Schools', href: '/schools-and-parishes' },
];

export const FOOTER_QUICK_LINKS: readonly NavLink[] = [
  { label: 'Home Page', href: '/' },
  { label: 'About Our Mission', href: '/about' },
  { label: 'Explore Our Books', href: '/book' },
  { label: 'Shop Our Products', href: '/store' },
  { label: 'Schools & Parishes', href: '/schools-and-parishes' },
  { label: 'Read Our Blog', href: '/blog' },
  { label: 'Contact Our Team', href: '/contact' },
];

export const LEGAL_LINKS: readonly NavLink[] = [
  { label: 'Privacy Policy', href: '/privacy-policy' },
  { label: 'Terms of Service', href: '/terms-of-service' },
];

export const SOCIAL = [
  { name: 'Instagram', href: 'https://www.instagram.com/awesomecatholickids' },
  { name: 'Facebook', href: 'https://www.facebook.com/awesomecatholickids' },
] as const;

/** The two networks a blog post can be shared to. */
export const SHARE_TARGETS = [
  { name: 'Facebook', build: (url: string) => `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(url)}` },
  { name: 'X', build: (url: string, title: string) => `https://x.com/intent/post?url=${encodeURIComponent(url)}&text=${encodeURIComponent(title)}` },
] as const;
