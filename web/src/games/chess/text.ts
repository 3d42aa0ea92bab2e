// Chess's strings in both languages.
import { texts } from '../../i18n';

export const tx = texts({
  notationSan: ['代数记谱 (SAN)', 'SAN'],
  notationUci: ['坐标 (UCI)', 'UCI'],
});
