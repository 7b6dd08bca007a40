import { Link } from 'react-router';
import { PageIntro } from './page-intro.tsx';

export interface ScreenAction {
  label: string;
  to: string;
  /** An address outside the app (the shop, customer service). */
  external?: boolean;
  variant?: 'primary' | 'outline';
}

/** A page that says one thing and offers what to do next. */
export function MessageScreen({
  eyebrow,
  title,
  text,
  actions = [],
  inverse = false,
  children,
}: {
  eyebrow?: string;
  title: string;
  text?: React.ReactNode;
  actions?: ScreenAction[];
  inverse?: boolean;
  children?: React.ReactNode;
}) {
  const classFor = (variant: ScreenAction['variant'] = 'primary') =>
    variant === 'primary' ? (inverse ? 'btn-inverse' : 'btn-primary') : inverse ? 'btn border-paper text-paper hover:bg-paper hover:text-ink' : 'btn-outline';
  return (
    <div>
      <PageIntro eyebrow={eyebrow} title={title} lead={text} inverse={inverse} />
      {children}
      {actions.length > 0 && (
        <p className="mt-10 flex flex-col gap-4 sm:flex-row sm:flex-wrap">
          {actions.map((action) =>
            action.external ? (
              <a key={action.to} className={classFor(action.variant)} href={action.to} rel="noopener">
                {action.label}
              </a>
            ) : (
              <Link key={action.to} className={classFor(action.variant)} to={action.to}>
                {action.label}
              </Link>
            ),
          )}
        </p>
      )}
    </div>
  );
}
