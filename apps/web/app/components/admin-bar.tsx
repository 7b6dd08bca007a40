import { Form, NavLink } from 'react-router';
import { useLocalPath, useT } from '../lib/page/use-root.ts';

/** Who is signed in, and the way out. */
export function AdminBar({ email, permissions = [] }: { email: string; permissions?: readonly string[] }) {
  const t = useT();
  const path = useLocalPath();
  return (
    <div className="mb-10 flex flex-wrap items-center justify-between gap-4 border-b border-paper/20 pb-4 text-sm text-paper/80">
      <p>{t('admin.signedInAs', { email })}</p>
      <nav aria-label={t('admin.nav.label')}>
        <ul className="flex flex-wrap gap-x-5 gap-y-2">
          {permissions.includes('codes.manage') && <li><NavLink to={path('/admin/registrationlinkgenerator')} className="link text-paper aria-[current=page]:decoration-2">{t('admin.nav.linkGenerator')}</NavLink></li>}
          <li><NavLink to={path('/admin/splitgenerator')} className="link text-paper aria-[current=page]:decoration-2">{t('admin.splitGenerator.title')}</NavLink></li>
          {permissions.includes('acquisition.read') && <li><NavLink to={path('/admin/codes')} className="link text-paper aria-[current=page]:decoration-2">{t('admin.codes.nav')}</NavLink></li>}
          <li><NavLink to={path('/admin/funnel')} className="link text-paper aria-[current=page]:decoration-2">{t('admin.nav.funnel')}</NavLink></li>
          {permissions.includes('acquisition.read') && <li><NavLink to={path('/admin/waitlist')} className="link text-paper aria-[current=page]:decoration-2">{t('admin.waitlist.nav')}</NavLink></li>}
          {permissions.includes('acquisition.read') && <li><NavLink to={path('/admin/outbox')} className="link text-paper aria-[current=page]:decoration-2">{t('admin.outbox.nav')}</NavLink></li>}
          {permissions.includes('acquisition.read') && <li><NavLink to={path('/admin/features')} className="link text-paper aria-[current=page]:decoration-2">{t('admin.features.nav')}</NavLink></li>}
          {permissions.includes('webhooks.manage') && <li><NavLink to={path('/admin/webhooks')} className="link text-paper aria-[current=page]:decoration-2">{t('admin.webhooks.nav')}</NavLink></li>}
          {permissions.includes('admins.manage') && <li><NavLink to={path('/admin/admins')} className="link text-paper aria-[current=page]:decoration-2">{t('admin.nav.admins')}</NavLink></li>}
          {permissions.includes('members.support') && <li><NavLink to={path('/admin/members')} className="link text-paper aria-[current=page]:decoration-2">{t('admin.members.nav')}</NavLink></li>}
          {permissions.includes('privacy.manage') && <li><NavLink to={path('/admin/privacy')} className="link text-paper aria-[current=page]:decoration-2">{t('admin.privacy.nav')}</NavLink></li>}
          {permissions.includes('audit.read') && <li><NavLink to={path('/admin/audit')} className="link text-paper aria-[current=page]:decoration-2">{t('admin.nav.audit')}</NavLink></li>}
          <li><NavLink to={path('/admin/security')} className="link text-paper aria-[current=page]:decoration-2">{t('admin.nav.security')}</NavLink></li>
        </ul>
      </nav>
      <Form method="post" action={path('/admin/login')}>
        <input type="hidden" name="intent" value="logout" />
        <button type="submit" className="link text-paper">{t('admin.logout')}</button>
      </Form>
    </div>
  );
}
