import { render } from 'preact';
import { applyDocumentLanguage } from '../ui/i18n.ts';
import { Popup } from '../ui/Popup.tsx';

applyDocumentLanguage();
const root = document.getElementById('app');
if (root) render(<Popup />, root);
