/**
 * The mail providers people at our door use (issue 24 §3, ADR 061): the domains a mistyped address
 * is compared with, most used first (a typo near two of them gets the first). Data, not logic:
 * add a provider by adding its domain. A domain here is never corrected, so a real domain near a
 * provider (gmx.com beside gmx.de, live.se, o2.pl beside op.pl) belongs here too.
 */
export const MAIL_PROVIDERS: readonly string[] = [
  // Global
  'gmail.com', 'googlemail.com', 'icloud.com', 'me.com', 'mac.com', 'aol.com', 'aol.de', 'aol.fr', 'aol.it', 'mail.com', 'email.com',
  'proton.me', 'protonmail.com', 'protonmail.ch', 'pm.me', 'tutanota.com', 'tutanota.de', 'tuta.io', 'tuta.com', 'zoho.com', 'zohomail.eu',
  'yandex.com', 'yandex.ru', 'mail.ru', 'inbox.ru', 'list.ru', 'bk.ru', 'msn.com', 'ymail.com', 'rocketmail.com', 'fastmail.com', 'hey.com',
  // Microsoft
  'hotmail.com', 'hotmail.de', 'hotmail.fr', 'hotmail.it', 'hotmail.co.uk', 'hotmail.es', 'hotmail.nl', 'hotmail.be', 'hotmail.se',
  'hotmail.ch', 'hotmail.at', 'hotmail.dk', 'hotmail.fi', 'hotmail.gr', 'hotmail.no', 'hotmail.pl', 'hotmail.cz',
  'outlook.com', 'outlook.de', 'outlook.fr', 'outlook.it', 'outlook.es', 'outlook.at', 'outlook.be', 'outlook.dk', 'outlook.ie',
  'outlook.pt', 'outlook.cz', 'outlook.sk', 'outlook.hu', 'outlook.com.gr', 'outlook.co.uk', 'outlook.nl', 'outlook.se', 'outlook.pl',
  'live.com', 'live.de', 'live.fr', 'live.it', 'live.nl', 'live.be', 'live.se', 'live.at', 'live.ch', 'live.dk', 'live.co.uk',
  'live.ie', 'live.no', 'live.fi', 'live.pl', 'live.cz', 'live.pt',
  // Yahoo
  'yahoo.com', 'yahoo.de', 'yahoo.fr', 'yahoo.it', 'yahoo.co.uk', 'yahoo.es', 'yahoo.ie', 'yahoo.gr', 'yahoo.se', 'yahoo.dk', 'yahoo.at',
  'yahoo.be', 'yahoo.nl', 'yahoo.pl', 'yahoo.ro', 'yahoo.no', 'yahoo.fi', 'yahoo.pt', 'yahoo.ch', 'yahoo.cz', 'yahoo.hu',
  // Germany, Austria, Switzerland
  'gmx.de', 'gmx.at', 'gmx.net', 'gmx.ch', 'gmx.com', 'gmx.fr', 'gmx.es', 'gmx.eu', 'gmx.li', 'web.de', 't-online.de', 'freenet.de',
  'posteo.de', 'posteo.net', 'mailbox.org', 'mail.de', 'email.de', 'arcor.de', 'online.de', 'vodafone.de', 'kabelmail.de', 'magenta.de',
  'aon.at', 'a1.net', 'chello.at', 'liwest.at', 'bluewin.ch', 'sunrise.ch', 'hispeed.ch', 'swissonline.ch', 'gmail.ch',
  // France, Belgium, Luxembourg
  'orange.fr', 'free.fr', 'laposte.net', 'sfr.fr', 'wanadoo.fr', 'neuf.fr', 'bbox.fr', 'numericable.fr', 'aliceadsl.fr', 'club-internet.fr',
  'skynet.be', 'telenet.be', 'proximus.be', 'voo.be', 'pt.lu',
  // Italy
  'libero.it', 'virgilio.it', 'tiscali.it', 'alice.it', 'tin.it', 'fastwebnet.it', 'inwind.it', 'email.it', 'iol.it', 'tim.it', 'pec.it',
  // Netherlands
  'ziggo.nl', 'kpnmail.nl', 'home.nl', 'planet.nl', 'hetnet.nl', 'xs4all.nl', 'kpnplanet.nl', 'casema.nl', 'upcmail.nl', 'telfort.nl',
  'chello.nl', 'zeelandnet.nl', 'quicknet.nl',
  // Poland
  'wp.pl', 'onet.pl', 'op.pl', 'o2.pl', 'interia.pl', 'interia.eu', 'poczta.onet.pl', 'vp.pl', 'gazeta.pl', 'tlen.pl', 'poczta.fm',
  'onet.eu', 'autograf.pl', 'go2.pl', 'int.pl', 'spoko.pl',
  // Czechia, Slovakia, Hungary, Romania, Bulgaria, Croatia, Slovenia
  'seznam.cz', 'email.cz', 'centrum.cz', 'post.cz', 'atlas.cz', 'volny.cz', 'azet.sk', 'centrum.sk', 'zoznam.sk', 'pobox.sk',
  'freemail.hu', 'citromail.hu', 't-online.hu', 'indamail.hu', 'abv.bg', 'mail.bg', 'dir.bg', 't-com.hr', 'net.hr', 'siol.net',
  // Nordics and Baltics
  'telia.com', 'bredband.net', 'spray.se', 'bahnhof.se', 'comhem.se', 'tele2.se', 'passagen.se', 'telia.se', 'jubii.dk', 'mail.dk',
  'stofanet.dk', 'get2net.dk', 'elisanet.fi', 'luukku.com', 'suomi24.fi', 'inbox.lv', 'inbox.lt', 'one.lt', 'mail.ee',
  // Spain, Portugal, Ireland, the United Kingdom, Greece
  'telefonica.net', 'movistar.es', 'terra.es', 'sapo.pt', 'netcabo.pt', 'eircom.net', 'btinternet.com', 'sky.com', 'virginmedia.com',
  'otenet.gr', 'windowslive.com',
  // No providers, but real mail domains one slip from one: never corrected. post.ch (Swiss Post's
  // staff) is one key from post.cz.
  'post.ch',
];

/**
 * Top levels that exist nowhere but are one slip from one that does: `firma-mueller.con` is
 * `firma-mueller.com`. Only top levels no registry delegates (not .co, .cm, .om or .ne, which
 * are countries).
 */
export const MISTYPED_TOP_LEVELS: Readonly<Record<string, string>> = {
  con: 'com', cmo: 'com', ocm: 'com', vom: 'com', xom: 'com', cpm: 'com', coom: 'com', comm: 'com', cim: 'com', clm: 'com',
  ed: 'de', dee: 'de', ded: 'de', dw: 'de', ner: 'net', nte: 'net', nett: 'net', ogr: 'org', orgg: 'org', rf: 'fr', fe: 'fr',
  ti: 'it', ln: 'nl', lp: 'pl', ppl: 'pl', ta: 'at', hc: 'ch',
};
