import { escapeHtml, prepareRender, renderTemplate, templateVariables } from '../template';

describe('templates', () => {
  it('finds variables in order of first appearance, once each, tolerating spaces', () => {
    expect(templateVariables('<p>[[a]] and [[ b ]] then [[a]] and [[c.d-e_f]]</p>')).toEqual(['a', 'b', 'c.d-e_f']);
  });

  it('ignores things that only look like placeholders', () => {
    expect(templateVariables('[a] [[]] [[1abc]] [[has space]]')).toEqual([]);
  });

  it('takes [[__proto__]] for plain text, since no value can be given for it', () => {
    expect(templateVariables('[[__proto__]] [[ __proto__ ]] [[__proto__x]] [[a]]')).toEqual(['__proto__x', 'a']);
    expect(renderTemplate('<p>[[__proto__]] [[a]]</p>', { a: '1' })).toBe('<p>[[__proto__]] 1</p>');
  });

  it('renders values HTML-escaped, attributes included', () => {
    const html = renderTemplate('<a title="[[t]]">[[t]]</a>', { t: `"><script>alert('x')</script>&` });
    expect(html).toBe(
      '<a title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</a>',
    );
  });

  it('escapes the five HTML-significant characters and nothing else', () => {
    expect(escapeHtml(`<>&"' é ✓`)).toBe('&lt;&gt;&amp;&quot;&#39; é ✓');
  });

  it('does not re-interpret placeholders inside values', () => {
    expect(renderTemplate('[[a]] [[b]]', { a: '[[b]]', b: 'x' })).toBe('[[b]] x');
  });

  it('renders the same template many times with other values, missing ones empty, text kept as is', () => {
    const template = '<p>[[ a ]]-[[b]]</p>[[a]]$&$1';
    expect(renderTemplate(template, { a: '1', b: '<' })).toBe('<p>1-&lt;</p>1$&$1');
    expect(renderTemplate(template, { a: '2' })).toBe('<p>2-</p>2$&$1');
    expect(renderTemplate('no placeholders', {})).toBe('no placeholders');
    expect(renderTemplate('[[x]]', { x: 'only' })).toBe('only');
  });

  it('measures a prompt before building it, so a huge one can be refused without being built', () => {
    const template = '<p>[[a]]</p>' + '[[a]]'.repeat(999);
    const prepared = prepareRender(template, { a: '"'.repeat(10_000) });
    expect(prepared.length).toBe(7 + 1000 * 60_000);
    const small = prepareRender('<a title="[[t]]">[[t]] [[u]]</a>', { t: `"x'`, u: '<' });
    expect(small.html()).toBe('<a title="&quot;x&#39;">&quot;x&#39; &lt;</a>');
    expect(small.length).toBe(small.html().length);
  });

  it('tells when a value lands inside a tag, where escaping alone does not make it safe', () => {
    expect(prepareRender('<p>[[a]]</p><b>[[b]]</b>', {}).valueInTag).toBe(false);
    expect(prepareRender('<p>no placeholder</p>', {}).valueInTag).toBe(false);
    expect(prepareRender('<p>[[a]]</p><a href="[[link]]">go</a>', {}).valueInTag).toBe(true);
    expect(prepareRender('<img alt="x" src="[[a]]-[[b]]">', {}).valueInTag).toBe(true);
    expect(prepareRender('<a\n  title="[[t]]">', {}).valueInTag).toBe(true);
  });
});
