import { render } from 'preact';
import { applyDocumentLanguage } from '../ui/i18n.ts';
import { App } from '../ui/App.tsx';

applyDocumentLanguage();
const root = document.getElementById('app');
if (root) render(<App />, root);
