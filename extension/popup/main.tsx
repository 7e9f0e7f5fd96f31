document.getElementById('app')!.textContent = 'Tether popup';
