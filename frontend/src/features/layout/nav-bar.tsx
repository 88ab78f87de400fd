import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useNavigate } from 'react-router-dom';
import type { UserDto } from '@rna/domain';
import { Dropdown } from '../../components/dropdown';
import { formatDate, remainingSearchesTone } from '../../lib/domain-rules';
import { useAppDispatch } from '../../lib/hooks';
import { imageUrl } from '../../lib/runtime-config';
import { logout } from '../../lib/session/session-actions';
import { useGetMyClientQuery } from '../../lib/session/session-api';
import { NARROW_QUERY, useMediaQuery } from '../../lib/use-media-query';
import { ChangePasswordDialog } from './change-password-dialog';

function Brand({ user }: { user: UserDto }) {
  const { t } = useTranslation();
  return (
    <Link to="/" className="nav-bar__brand">
      {user.logo?.fileName ? (
        <img src={imageUrl(user.logo.fileName)} alt={user.logo.name} className="nav-bar__logo" />
      ) : (
        <span className="nav-bar__logo-default" aria-hidden="true">
          RNA
        </span>
      )}
      <span className="nav-bar__title">{t('app.name')}</span>
    </Link>
  );
}

export function NavBar({ user }: { user: UserDto }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const narrow = useMediaQuery(NARROW_QUERY);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const isClient = user.role === 'CLIENT';
  const { data: me } = useGetMyClientQuery(undefined, { skip: !isClient });

  const tone =
    isClient && me ? remainingSearchesTone(me.remainingSearches, me.availableYearlySearches) : null;
  const remaining =
    isClient && me
      ? t(tone === 'empty' ? 'nav.remainingNone' : 'nav.remaining', {
          remaining: me.remainingSearches,
          total: me.availableYearlySearches,
        })
      : null;
  const endDate = isClient && me ? t('nav.endDate', { date: formatDate(me.endDate) }) : null;
  const signOut = () => {
    logout(dispatch);
    navigate('/', { replace: true });
  };

  return (
    <header className="nav-bar">
      <div className="nav-bar__inner">
        <Brand user={user} />
        {narrow ? (
          <Dropdown
            align="right"
            ariaLabel={t('nav.menu')}
            label={<span aria-hidden="true">☰</span>}
            items={[
              ...(remaining
                ? [{ key: 'remaining', label: remaining, onSelect: () => undefined, disabled: true }]
                : []),
              ...(endDate ? [{ key: 'end', label: endDate, onSelect: () => undefined, disabled: true }] : []),
              { key: 'email', label: user.email, onSelect: () => undefined, disabled: true },
              { key: 'home', label: t('nav.home'), onSelect: () => navigate('/') },
              { key: 'bulk', label: t('nav.bulk'), onSelect: () => navigate('/ricerca-massiva') },
              { key: 'groups', label: t('nav.groups'), onSelect: () => navigate('/imprese-uniche') },
              ...(user.role === 'ADMIN'
                ? [
                    { key: 'clients', label: t('nav.clients'), onSelect: () => navigate('/clients') },
                    { key: 'sync', label: t('nav.archive'), onSelect: () => navigate('/sync') },
                    { key: 'audit', label: t('nav.audit'), onSelect: () => navigate('/audit') },
                  ]
                : []),
              { key: 'password', label: t('nav.changePassword'), onSelect: () => setPasswordOpen(true) },
              { key: 'logout', label: t('nav.logout'), onSelect: signOut },
            ]}
          />
        ) : (
          <nav className="nav-bar__menu" aria-label={t('nav.label')}>
            {remaining && (
              <span className={`nav-bar__badge nav-bar__badge--${tone}`} title={t('nav.remainingTitle')}>
                {remaining}
              </span>
            )}
            {endDate && <span className="nav-bar__info">{endDate}</span>}
            {/* home: the search, the saved search to resume and the alerts, whatever was saved */}
            <NavLink to="/" end className="nav-bar__link">
              {t('nav.home')}
            </NavLink>
            <NavLink to="/ricerca-massiva" className="nav-bar__link">
              {t('nav.bulk')}
            </NavLink>
            <NavLink to="/imprese-uniche" className="nav-bar__link">
              {t('nav.groups')}
            </NavLink>
            {user.role === 'ADMIN' && (
              <>
                <NavLink to="/clients" className="nav-bar__link">
                  {t('nav.clients')}
                </NavLink>
                <NavLink to="/sync" className="nav-bar__link">
                  {t('nav.archive')}
                </NavLink>
                <NavLink to="/audit" className="nav-bar__link">
                  {t('nav.audit')}
                </NavLink>
              </>
            )}
            {/* the account: its address opens what concerns it, so that an administrator's six items fit one line */}
            <Dropdown
              className="nav-bar__account"
              align="right"
              label={
                <span className="nav-bar__email" title={user.email}>
                  {user.email}
                </span>
              }
              items={[
                { key: 'password', label: t('nav.changePassword'), onSelect: () => setPasswordOpen(true) },
              ]}
            />
            <button type="button" className="button button--secondary" onClick={signOut}>
              {t('nav.logout')}
            </button>
          </nav>
        )}
      </div>
      {passwordOpen && <ChangePasswordDialog onClose={() => setPasswordOpen(false)} />}
    </header>
  );
}
