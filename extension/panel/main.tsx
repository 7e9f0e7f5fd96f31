document.getElementById('app')!.textContent = 'Tether panel';
