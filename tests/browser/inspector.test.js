// The ID inspector (inspector/, built into inspector/dist/), opened from disk
// in a browser context with the network off: the Discord docs' ID with the
// Discord preset shows its documented time; every mint button works; each
// preset's bit picture follows its layout; a screenshot lands in
// tmp/inspector-discord.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT, withBrowser } from './harness.js';

const PAGE = pathToFileURL(path.join(REPO_ROOT, 'inspector/dist/index.html')).href;
const SCREENSHOT = path.join(REPO_ROOT, 'tmp/inspector-discord.png');

test('the inspector decodes a Discord ID and mints every kind, offline from file://', { timeout: 120_000 }, async (t) => {
  await withBrowser(async ({ browser }) => {
    const context = await browser.newContext({ offline: true, viewport: { width: 1100, height: 900 } });
    try {
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(PAGE);
      await page.selectOption('#preset', 'discord');
      await page.fill('#id', '175928847299117063');
      const fields = page.locator('#fields');
      await assert.doesNotReject(fields.getByText('2016-04-30T11:18:25.796Z', { exact: true }).waitFor());
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, with tabs between table cells
      const text = await fields.innerText();
      assert.match(text, /kind\s+snowflake/);
      assert.match(text, /workerId\s+32/);
      assert.match(text, /sequence\s+7/);
      assert.equal(await page.locator('#bits span').count(), 64);
      mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      t.diagnostic(`screenshot: ${path.relative(REPO_ROOT, SCREENSHOT)}`);

      const kinds = {
        Snowflake: ['snowflake', 64],
        ULID: ['ulid', 128],
        UUIDv7: ['uuid v7', 128],
        UUIDv4: ['uuid v4', 128],
        UUIDv1: ['uuid v1', 128],
        UUIDv6: ['uuid v6', 128],
        KSUID: ['ksuid', 160],
        ObjectId: ['objectid', 96],
        TypeID: ['typeid', 128],
      };
      for (const [button, [kind, bits]] of Object.entries(kinds)) {
        await page.getByRole('button', { name: button, exact: true }).click();
        // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, with tabs between table cells
        assert.equal(await page.locator('#fields tr').first().innerText(), `kind\t${kind}`, button);
        assert.equal(await page.locator('#bits span').count(), bits, button);
      }
      // Each preset's picture is its layout: the legend's widths add up to 64, a sign bit only where the layout leaves one.
      const legends = {};
      for (const preset of ['twitter', 'discord', 'instagram', 'sonyflake', 'mastodon']) {
        await page.selectOption('#preset', preset);
        await page.getByRole('button', { name: 'Snowflake', exact: true }).click();
        legends[preset] = (await page.locator('#legend span').allTextContents()).join(' ');
      }
      assert.deepEqual(legends, {
        twitter: 'sign (1) time (41) worker (10) sequence (12)',
        discord: 'time (42) worker (10) sequence (12)',
        instagram: 'time (41) worker (13) sequence (10)',
        sonyflake: 'sign (1) time (39) sequence (8) worker (16)',
        mastodon: 'time (48) sequence (16)',
      });
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });
});
