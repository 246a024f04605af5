import Origami
