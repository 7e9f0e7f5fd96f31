import { mountPage } from '../ui/mountPage.tsx';
import { Popup } from '../ui/Popup.tsx';

mountPage(<Popup />);
