// Short tones made with WebAudio (no sound files): move, capture, check, low time,
// game end, and a quiet pentatonic background loop.
import { settings } from './settings';

// Browsers let audio start only after the user has interacted with the page; an
// AudioContext made or resumed before that logs an autoplay warning (each time).
// So none is made before the first click or key, and a suspended one is resumed
// once per interaction, never by a sound or the music loop.
let ctx: AudioContext | null = null;
let activated = typeof navigator !== 'undefined' && (navigator as Navigator & { userActivation?: { hasBeenActive: boolean } }).userActivation?.hasBeenActive === true;

function onActivation() {
  activated = true;
  if (ctx && ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
}
if (typeof window !== 'undefined') {
  for (const ev of ['pointerdown', 'keydown'] as const) window.addEventListener(ev, onActivation, { capture: true, passive: true });
}

function audio(): AudioContext | null {
  if (!activated) return null;
  if (!ctx) {
    const C = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!C) return null;
    ctx = new C();
  }
  return ctx.state === 'running' || ctx.state === 'suspended' ? ctx : null;
}

function tone(freq: number, start: number, dur: number, type: OscillatorType = 'sine', vol = 0.15) {
  const a = audio();
  if (!a) return;
  const t = a.currentTime + start;
  const o = a.createOscillator();
  const g = a.createGain();
  o.type = type;
  o.frequency.setValueAtTime(freq, t);
  g.gain.setValueAtTime(0.0001, t);
  g.gain.exponentialRampToValueAtTime(vol, t + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, t + dur);
  o.connect(g).connect(a.destination);
  o.start(t);
  o.stop(t + dur + 0.02);
}

export type SoundKind = 'move' | 'capture' | 'check' | 'lowtime' | 'end' | 'notify';

export function play(kind: SoundKind): void {
  if (!settings().sound) return;
  // Counted on the page (data-sound-lowtime="2"), so that a test can tell a warning sounded.
  const d = document.documentElement.dataset;
  const key = `sound${kind[0].toUpperCase()}${kind.slice(1)}`;
  d[key] = String(Number(d[key] ?? 0) + 1);
  try {
    switch (kind) {
      case 'move':
        tone(520, 0, 0.08, 'triangle');
        break;
      case 'capture':
        tone(300, 0, 0.1, 'square', 0.08);
        tone(200, 0.05, 0.12, 'square', 0.06);
        break;
      case 'check':
        tone(880, 0, 0.1, 'sawtooth', 0.07);
        tone(1100, 0.1, 0.15, 'sawtooth', 0.07);
        break;
      case 'lowtime':
        tone(1000, 0, 0.05, 'square', 0.05);
        break;
      case 'end':
        tone(523, 0, 0.2);
        tone(659, 0.15, 0.2);
        tone(784, 0.3, 0.35);
        break;
      case 'notify':
        tone(740, 0, 0.12);
        tone(988, 0.1, 0.15);
        break;
    }
  } catch {
    /* audio is optional */
  }
}

let musicTimer: number | null = null;
const SCALE = [392, 440, 523, 587, 659, 784, 880];

export function syncMusic(): void {
  const on = settings().music;
  if (on && musicTimer === null) {
    let i = 0;
    musicTimer = window.setInterval(() => {
      const n = SCALE[(i * 3 + (i >> 2)) % SCALE.length];
      tone(n, 0, 1.2, 'sine', 0.03);
      if (i % 4 === 0) tone(n / 2, 0, 2, 'sine', 0.02);
      i++;
    }, 900);
  } else if (!on && musicTimer !== null) {
    clearInterval(musicTimer);
    musicTimer = null;
  }
}
