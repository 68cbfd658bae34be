import { expect } from 'chai';
import { defineNotification, escapeHtml, htmlToText, localize, renderMessage, TemplateChannelMissingError, TemplateNotFoundError, TemplateRenderError } from '../../src/index.js';
import { templates } from '../support/notify-fixtures.js';

const row = { id: '00000000-0000-4000-8000-000000000001', to: 'ada@example.com', template: 'task-assigned', category: 'transactional' };

describe('templates', () => {
  it('renders email HTML from MJML, with a text fallback from the HTML when the template gives none', async () => {
    const message = await renderMessage(templates, { ...row, channel: 'email', data: { title: 'Ship <it>', assignee: 'Ada' } });
    expect(message.email!.subject).to.equal('Assigned: Ship <it>');
    expect(message.email!.html).to.match(/^<!doctype html>/i).and.contain('Ada, you have a new task:').and.contain('<b>Ship &lt;it&gt;</b>');
    // MJML's responsive layout: a table-based body, media queries.
    expect(message.email!.html).to.contain('<table').and.contain('@media');
    expect(message.email!.text).to.equal('Ada, you have a new task: Ship <it>');
    expect(message).to.include({ id: row.id, channel: 'email', to: 'ada@example.com', locale: 'en' });
  });

  it('renders by the recipient locale: the exact tag, then its language, then the default', async () => {
    const fr = await renderMessage(templates, { ...row, channel: 'sms', locale: 'fr-CA', data: { title: 'Livrer', assignee: 'Ada' } });
    expect(fr.sms!.body).to.equal('Nouvelle tâche : Livrer');
    const de = await renderMessage(templates, { ...row, channel: 'sms', locale: 'de', data: { title: 'Ship', assignee: 'Ada' } });
    expect(de.sms!.body).to.equal('New task: Ship');
    expect(localize('pt-BR', { en: 'a', pt: 'b', 'pt-br': 'c' })).to.equal('c');
    expect(localize('pt-PT', { en: 'a', pt: 'b' })).to.equal('b');
    expect(localize(undefined, { fr: 'x', de: 'y' }, 'de')).to.equal('y');
  });

  it('uses the template text part when given, and renders whatsapp and push', async () => {
    const all = {
      everything: defineNotification<{ n: number }>({
        defaultLocale: 'fr',
        email: { subject: (d) => `n=${d.n}`, mjml: () => '<mjml><mj-body><mj-section><mj-column><mj-text>html</mj-text></mj-column></mj-section></mj-body></mjml>', text: (d, { locale }) => `text ${d.n} ${locale}` },
        whatsapp: (d) => ({ body: `wa ${d.n}`, template: { name: 'count', language: 'fr', parameters: [String(d.n)] } }),
        push: (d) => ({ title: 'Count', body: String(d.n), data: { n: String(d.n) } }),
      }),
    };
    expect(all.everything.channels).to.deep.equal(['email', 'whatsapp', 'push']);
    expect((await renderMessage(all, { ...row, template: 'everything', channel: 'email', data: { n: 3 } })).email!.text).to.equal('text 3 fr');
    expect((await renderMessage(all, { ...row, template: 'everything', channel: 'whatsapp', data: { n: 3 } })).whatsapp).to.deep.equal({ body: 'wa 3', template: { name: 'count', language: 'fr', parameters: ['3'] } });
    expect((await renderMessage(all, { ...row, template: 'everything', channel: 'push', data: { n: 3 } })).push).to.deep.equal({ title: 'Count', body: '3', data: { n: '3' } });
  });

  it('refuses an unknown template, a channel it has no renderer for, and MJML that does not validate', async () => {
    expect(await renderMessage(templates, { ...row, template: 'toString', channel: 'email', data: {} }).catch((e: unknown) => e)).to.be.instanceOf(TemplateNotFoundError);
    expect(await renderMessage(templates, { ...row, channel: 'push', data: {} }).catch((e: unknown) => e)).to.be.instanceOf(TemplateChannelMissingError);
    const broken = { broken: defineNotification<object>({ email: { subject: () => 's', mjml: () => '<mjml><mj-body><mj-section><mj-text>text outside a column</mj-text></mj-section></mj-body></mjml>' } }) };
    expect(await renderMessage(broken, { ...row, template: 'broken', channel: 'email', data: {} }).catch((e: unknown) => e)).to.be.instanceOf(TemplateRenderError).with.property('message').that.contains('mj-text');
  });

  it('escapes values for HTML and turns HTML into readable text', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).to.equal('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(htmlToText('<html><head><style>p{}</style></head><body><p>One &amp; two</p><div>three<br>four</div></body></html>')).to.equal('One & two\nthree\nfour');
  });
});
