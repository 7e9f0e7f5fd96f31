import { App } from '../ui/App.tsx';
import { mountPage } from '../ui/mountPage.tsx';

mountPage(<App />);
