import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setGames, gameName, gameIcon, optionPresets, allGames, type GameInfo } from '../src/net/games.ts';
import { t, type Key } from '../src/i18n.ts';
import { update } from '../src/settings.ts';

// Two descriptors as `GET /api/games` gives them (the fields this test reads).
const go = {
  name: 'go',
  zh: '围棋',
  en: 'Go',
  icon: '●',
  option_presets: {
    zh: '棋盘',
    en: 'Board',
    presets: [
      { key: '9', zh: '9×9', en: '9×9', options: { size: 9, komi: 7.5, handicap: 0 } },
      { key: '19', zh: '19×19', en: '19×19', options: { size: 19, komi: 7.5, handicap: 0 } },
    ],
  },
  api_variant: null,
} as unknown as GameInfo;
const chess = { name: 'chess', zh: '国际象棋', en: 'Chess', icon: '♞', option_presets: null, api_variant: { key: 'standard', name: 'Standard', short: 'Std' } } as unknown as GameInfo;

test("a game's name, glyph and option presets come from its descriptor, in the user's language", () => {
  setGames([chess, go]);
  update({ lang: 'zh-CN' });
  assert.equal(gameName('go'), '围棋');
  assert.equal(gameName('chess'), '国际象棋');
  // `t` reads the descriptors' names too (i18n.ts holds none).
  assert.equal(t('chess' as Key), '国际象棋');
  update({ lang: 'en' });
  assert.equal(gameName('go'), 'Go');
  assert.equal(t('go' as Key), 'Go');
  assert.equal(gameIcon('chess'), '♞');
  assert.deepEqual(optionPresets('go').map((p) => p.key), ['9', '19']);
  assert.deepEqual(optionPresets('go')[0].options, { size: 9, komi: 7.5, handicap: 0 });
  assert.deepEqual(optionPresets('chess'), []);
  assert.deepEqual(allGames().flatMap((g) => (g.api_variant ? [g.api_variant.key] : [])), ['standard']);
  // A game the server does not host is named by its name, with the plain glyph.
  assert.equal(gameName('shogi'), 'shogi');
  assert.equal(gameIcon('shogi'), '◆');
  assert.deepEqual(optionPresets('shogi'), []);
  // The built-in words keep theirs.
  assert.equal(t('white'), 'White');
});
