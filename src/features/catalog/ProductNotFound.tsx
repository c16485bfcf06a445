/** The not-found views of the product page and the book page, in the shop's words. */
interface NotFoundCopy {
  heading: string;
  text: string;
  link: { href: string; label: string };
}

export const PRODUCT_NOT_FOUND: NotFoundCopy = { heading: 'Product Not Found', text: "Sorry, we couldn't find that product.", link: { href: '/store', label: 'Back to Store' } };
export const BOOK_NOT_FOUND: NotFoundCopy = { heading: 'Book Not Found', text: "Sorry, we couldn't find the book you're looking for.", link: { href: '/store', label: 'Browse Store' } };

export function NotFoundMessage({ heading, text, link }: NotFoundCopy) {
  return (
    <div className="py-20 text-center">
      <h1 className="text-3xl font-bold">{heading}</h1>
      <p className="mt-3 text-slate-700">{text}</p>
      <a href={link.href} className="btn-primary mt-6">
        {link.label}
      </a>
    </div>
  );
}

/** What the product page shows for an id the database does not know. */
export default function ProductNotFound() {
  return <NotFoundMessage {...PRODUCT_NOT_FOUND} />;
}
